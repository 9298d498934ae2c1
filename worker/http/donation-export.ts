/**
 * GET /api/export/donations.csv?<filters>: access (worker/http/export-access.ts) and the file's
 * headers; the export itself (its filters, the audit row, the streamed CSV) is the donations
 * area's (worker/donations/export.ts).
 */
import { exportFileName } from "@core/csv";
import { exportDonations, parseDonationExportFilters } from "../donations/export";
import { exportAccess } from "./export-access";
import { json } from "./headers";

export async function handleDonationExport(request: Request, env: Env): Promise<Response> {
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
