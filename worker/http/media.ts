// Images over HTTP (decision 008): the type comes from the magic bytes, never the part's header. GET is
// public (covers appear on public pages) and cached for a year, since a row never changes after the insert.
import { MEDIA_MAX_BYTES, MEDIA_PATH } from "@core/media";
import { hasOrgPermission } from "@core/permissions";
import { getSessionFromRequest } from "../auth";
import { getConfig } from "../config";
import { directoryDatabase } from "../db/databases";
import { mediaById, sniffImage, storeMedia } from "../media/service";
import { resolveOrganization } from "../trpc/org";
import { json, MEDIA_POLICY, methodNotAllowed } from "./headers";

/** Room for the multipart envelope around the file when the request declares its length. */
const ENVELOPE_BYTES = 16 * 1024;

const refuse = (status: number, code: string, message: string) => json({ code, message }, { status });

async function handleMediaUpload(request: Request, env: Env): Promise<Response> {
  // Cross-site posts were refused by the origin gate (decision 018); a write reads the session fresh.
  const auth = await getSessionFromRequest(request, env, { fresh: true });
  if (!auth) return refuse(401, "UNAUTHORIZED", "Unauthorized");
  const config = getConfig(env);
  const org = await resolveOrganization(directoryDatabase(env), auth.user, config);
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
  const stored = await storeMedia(
    {
      env,
      user: auth.user,
      impersonatorId: auth.session.impersonatedBy ?? null,
      ip: request.headers.get("cf-connecting-ip"),
      org,
    },
    { bytes, type, name: file.name },
  );
  return json(stored, { status: 201 });
}

async function handleMediaGet(request: Request, env: Env, id: string): Promise<Response> {
  const row = await mediaById(directoryDatabase(env), id);
  if (!row) return refuse(404, "NOT_FOUND", "Image not found");
  const etag = `"${row.sha256}"`;
  const headers = new Headers({
    "Content-Type": row.content_type,
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    ETag: etag,
    // An image never runs script, even when opened directly (kept by applySecurityHeaders).
    "Content-Security-Policy": MEDIA_POLICY,
    "Cross-Origin-Resource-Policy": "same-site",
  });
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(row.byte_size));
  const body = row.bytes instanceof ArrayBuffer ? row.bytes : new Uint8Array(row.bytes);
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
}

export async function handleMedia(request: Request, env: Env, path: string): Promise<Response> {
  if (path === "/api/media") {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    return handleMediaUpload(request, env);
  }
  const m = MEDIA_PATH.exec(path);
  if (!m) return refuse(404, "NOT_FOUND", "Image not found");
  if (request.method !== "GET" && request.method !== "HEAD") return methodNotAllowed(["GET", "HEAD"]);
  return handleMediaGet(request, env, m[1] as string);
}
