/**
 * Uploaded images in D1 (docs/decisions/008-media-in-d1.md): campaign covers and organization logos.
 *
 *   POST /api/media      multipart `file`; a session whose organization grants campaign:update or
 *                        organization:update; 201 {id, url}. The type comes from the magic bytes,
 *                        never from the part's header; at most 1 MiB; audited in the same batch.
 *   GET  /api/media/:id  the stored bytes with the stored type, cacheable for a year: a row is never
 *                        changed after the insert, so its URL is immutable. Public, because covers
 *                        and logos appear on the public campaign page; ids are 128-bit random.
 */
import { hasOrgPermission } from "@core/permissions";
import { getSessionFromRequest } from "./auth";
import { generateId } from "./auth/crypto";
import { getConfig } from "./config";
import { json } from "./http/headers";
import { auditStatement } from "./lib/audit";
import { fail } from "./trpc/init";
import { resolveOrganization } from "./trpc/org";

/** 1 MiB. D1 allows up to 2 MB per row/BLOB (developers.cloudflare.com/d1/platform/limits). */
export const MEDIA_MAX_BYTES = 1024 * 1024;
/** Room for the multipart envelope around the file when the request declares its length. */
const ENVELOPE_BYTES = 16 * 1024;

export const MEDIA_PATH = /^\/api\/media\/([A-Za-z0-9_-]{16,64})$/;
export const mediaUrl = (id: string) => `/api/media/${id}`;

/**
 * An image saved on a record (a campaign's cover, the organization's logo) that points at
 * /api/media must be this organization's upload: another tenant's id is refused, not linked
 * (uploads are filed under the uploader's organization). Other URLs are the input schema's business.
 */
export async function assertOwnMedia(
  db: D1Database,
  orgId: string,
  url: string | null | undefined,
  field: string,
) {
  const id = url ? MEDIA_PATH.exec(url)?.[1] : undefined;
  if (!id) return;
  const own = await db
    .prepare("SELECT 1 FROM media WHERE id = ? AND organization_id = ?")
    .bind(id, orgId)
    .first();
  if (!own) fail("BAD_REQUEST", "That image was not found; upload it again", { field });
}

export type MediaType = "image/png" | "image/jpeg" | "image/webp";

/** What the bytes are, by signature: PNG, JPEG (SOI + marker) or WebP (RIFF….WEBP); null otherwise. */
export function sniffImage(b: Uint8Array): MediaType | null {
  const at = (i: number, sig: number[]) => sig.every((v, k) => b[i + k] === v);
  if (b.length >= 8 && at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (b.length >= 3 && at(0, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (b.length >= 12 && at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50]))
    return "image/webp";
  return null;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((x) => x.toString(16).padStart(2, "0")).join("");
}

const refuse = (status: number, code: string, message: string) => json({ code, message }, { status });

export async function handleMediaUpload(request: Request, env: Env): Promise<Response> {
  // The origin gate in worker/app.ts has already refused cross-site posts (decision 018); the
  // session is read from D1 (a write decides on the session as it is now).
  const auth = await getSessionFromRequest(request, env, { fresh: true });
  if (!auth) return refuse(401, "UNAUTHORIZED", "Unauthorized");
  const config = getConfig(env);
  const org = await resolveOrganization(env.DB, auth.user, config);
  const caller = { userId: auth.user.id, role: auth.user.role };
  const may = (p: Parameters<typeof hasOrgPermission>[2]) =>
    !!org && hasOrgPermission(caller, org.role, p, config.auth.adminUserIds);
  if (!org || !(may({ campaign: ["update"] }) || may({ organization: ["update"] }))) {
    return refuse(403, "FORBIDDEN", "You are not allowed to access resource: media");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MEDIA_MAX_BYTES + ENVELOPE_BYTES) {
    return refuse(413, "PAYLOAD_TOO_LARGE", "The image is larger than 1 MB");
  }
  let file: FormDataEntryValue | null;
  try {
    file = (await request.formData()).get("file");
  } catch {
    return refuse(400, "VALIDATION_ERROR", "Send the image as multipart/form-data in the field 'file'");
  }
  if (!file || typeof file === "string") {
    return refuse(400, "VALIDATION_ERROR", "Send the image as multipart/form-data in the field 'file'");
  }
  if (file.size === 0) return refuse(400, "VALIDATION_ERROR", "The file is empty");
  if (file.size > MEDIA_MAX_BYTES) return refuse(413, "PAYLOAD_TOO_LARGE", "The image is larger than 1 MB");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffImage(bytes);
  if (!type) return refuse(415, "UNSUPPORTED_MEDIA_TYPE", "Only PNG, JPEG or WebP images can be uploaded");
  const id = generateId();
  const sha256 = await sha256Hex(bytes);
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO media (id, organization_id, content_type, byte_size, sha256, bytes, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ).bind(id, org.id, type, bytes.byteLength, sha256, bytes, auth.user.id, now),
    auditStatement(
      {
        env,
        user: auth.user,
        impersonatorId: auth.session.impersonatedBy ?? null,
        ip: request.headers.get("cf-connecting-ip"),
        org,
      },
      {
        action: "media.upload",
        entityType: "media",
        entityId: id,
        after: { contentType: type, byteSize: bytes.byteLength, sha256, name: file.name.slice(0, 200) },
      },
    ),
  ]);
  return json({ id, url: mediaUrl(id), contentType: type, byteSize: bytes.byteLength }, { status: 201 });
}

export async function handleMediaGet(request: Request, env: Env, id: string): Promise<Response> {
  const row = await env.DB.prepare("SELECT content_type, byte_size, sha256, bytes FROM media WHERE id = ?")
    .bind(id)
    .first<{ content_type: string; byte_size: number; sha256: string; bytes: ArrayBuffer | number[] }>();
  if (!row) return refuse(404, "NOT_FOUND", "Image not found");
  const etag = `"${row.sha256}"`;
  const headers = new Headers({
    "Content-Type": row.content_type,
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    ETag: etag,
    // An image never runs script, even when opened directly.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    "Cross-Origin-Resource-Policy": "same-site",
  });
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(row.byte_size));
  const body = row.bytes instanceof ArrayBuffer ? row.bytes : new Uint8Array(row.bytes);
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
}

export async function handleMedia(request: Request, env: Env, path: string): Promise<Response> {
  if (path === "/api/media") {
    if (request.method !== "POST") return refuse(405, "METHOD_NOT_ALLOWED", "Use POST to upload");
    return handleMediaUpload(request, env);
  }
  const m = MEDIA_PATH.exec(path);
  if (!m) return refuse(404, "NOT_FOUND", "Image not found");
  if (request.method !== "GET" && request.method !== "HEAD")
    return refuse(405, "METHOD_NOT_ALLOWED", "Images are read with GET");
  return handleMediaGet(request, env, m[1] as string);
}
