// GET /api/export/organization.zip (data portability) under the export rule with `export:organization`, which
// only owners hold. The archive is worker/organization/portability/service.ts's.
import { archiveFileName } from "@core/csv";
import { limitHttpRequest } from "./api-limit";
import { exportAccess } from "./export-access";
import { methodNotAllowed } from "./headers";

export async function handleOrganizationExport(request: Request, env: Env): Promise<Response> {
  // GET only: the export is audited, and HEAD would write the audit row for nothing.
  if (request.method !== "GET") return methodNotAllowed(["GET"]);
  const limited = await limitHttpRequest(request, env, "export", true);
  if (limited) return limited;
  const access = await exportAccess(request, env, { export: ["create", "organization"] });
  if (access instanceof Response) return access;
  const { user, org } = access;
  const at = Date.now();
  // Loaded on demand: the ZIP writer serves one rare request (docs/steering/research/performance.md).
  const { exportOrganization } = await import("../organization/portability/service");
  const stream = await exportOrganization(
    { env, user, org, ip: request.headers.get("cf-connecting-ip") },
    { at },
  );
  return new Response(stream, {
    headers: {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${archiveFileName(org.slug, at, org.timeZone)}"`,
      "cache-control": "no-store",
    },
  });
}
