/**
 * GET /api/export/organization.zip: all of the organization's data in one file (issue 22, data
 * portability). Rate-limited like every export, then the export rule (worker/http/export-access.ts:
 * fresh session, never while impersonating) with `export:organization`, which only owners hold
 * (core/permissions.ts). The archive, its audit row and its contents are
 * worker/organization/portability/service.ts's.
 */
import { archiveFileName } from "@core/csv";
import { limitHttpRequest } from "./api-limit";
import { exportAccess } from "./export-access";

export async function handleOrganizationExport(request: Request, env: Env): Promise<Response> {
  const limited = await limitHttpRequest(request, env, "export", true);
  if (limited) return limited;
  const access = await exportAccess(request, env, { export: ["create", "organization"] });
  if (access instanceof Response) return access;
  const { user, org } = access;
  const at = Date.now();
  // Loaded here, not at start-up: the ZIP writer (fflate) serves this one rare request
  // (docs/steering/research/performance.md: nothing on the startup path that not every request needs).
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
