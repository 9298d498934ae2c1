// GET /api/export/donations.csv: access and headers; the export itself is worker/donations/export.ts.
import { exportFileName } from "@core/csv";
import { exportDonations, parseDonationExportFilters } from "../donations/export";
import { limitHttpRequest } from "./api-limit";
import { exportAccess } from "./export-access";
import { json, methodNotAllowed } from "./headers";

export async function handleDonationExport(request: Request, env: Env): Promise<Response> {
  // GET only: the export is audited, and HEAD would write the audit row for nothing.
  if (request.method !== "GET") return methodNotAllowed(["GET"]);
  const limited = await limitHttpRequest(request, env, "export", true);
  if (limited) return limited;
  const access = await exportAccess(request, env, { donation: ["view"] });
  if (access instanceof Response) return access;
  const { user, org } = access;
  const parsed = parseDonationExportFilters(new URL(request.url).searchParams);
  if (!parsed.success)
    return json({ code: "BAD_REQUEST", message: "Invalid export filters" }, { status: 400 });
  const stream = await exportDonations({ env, user, org }, parsed.data);
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${exportFileName(org.slug, "donations", Date.now(), org.timeZone)}"`,
      "cache-control": "no-store",
    },
  });
}
