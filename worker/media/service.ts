// Uploaded images in D1 (decision 008); what the browser also knows (limits, URL shape) is core/media.ts.
import { MEDIA_PATH, MEDIA_TYPES, type MediaType, mediaUrl } from "@core/media";
import { directoryDatabase } from "../db/databases";
import { type AuditActor, auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import { generateId } from "../lib/ids";
import { insertMedia, mediaOfOrganization } from "./queries";

export { mediaById } from "./queries";

/** An /api/media URL saved on a record must be this organization's upload: another tenant's id is refused. */
export async function assertOwnMedia(env: Env, orgId: string, url: string | null | undefined, field: string) {
  const id = url ? MEDIA_PATH.exec(url)?.[1] : undefined;
  if (!id) return;
  // Media lives in the directory (decision 027).
  if (!(await mediaOfOrganization(directoryDatabase(env), id, orgId)))
    fail("BAD_REQUEST", "That image was not found; upload it again", { field });
}

/** What the bytes are, by signature: PNG, JPEG (SOI + marker) or WebP (RIFF….WEBP); null otherwise. */
export function sniffImage(b: Uint8Array): MediaType | null {
  const at = (i: number, sig: number[]) => sig.every((v, k) => b[i + k] === v);
  if (b.length >= 8 && at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return MEDIA_TYPES[0];
  if (b.length >= 3 && at(0, [0xff, 0xd8, 0xff])) return MEDIA_TYPES[1];
  if (b.length >= 12 && at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50]))
    return MEDIA_TYPES[2];
  return null;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** Files an image, already sniffed and within MEDIA_MAX_BYTES, under the actor's organization, audited. */
export async function storeMedia(
  actor: AuditActor & { user: { id: string }; org: { id: string } },
  file: { bytes: Uint8Array<ArrayBuffer>; type: MediaType; name: string },
) {
  const id = generateId();
  const sha256 = await sha256Hex(file.bytes);
  const byteSize = file.bytes.byteLength;
  const db = directoryDatabase(actor.env);
  await db.batch([
    insertMedia(db, {
      id,
      organizationId: actor.org.id,
      contentType: file.type,
      byteSize,
      sha256,
      bytes: file.bytes,
      createdBy: actor.user.id,
    }),
    auditStatement(actor, {
      action: "media.upload",
      entityType: "media",
      entityId: id,
      after: { contentType: file.type, byteSize, sha256, name: file.name.slice(0, 200) },
    }),
  ]);
  return { id, url: mediaUrl(id), contentType: file.type, byteSize };
}
