import { PLATFORM_EXPORT_OWNER } from "@core/csv";
import { organizerCsvLines, organizerCsvStart } from "@core/exports/organizers";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { saveCsv } from "~/lib/save-csv";
import type { AppRouter } from "../../../worker/api-router";

/** A row of the export: the procedure's own output type (the columns live in core/exports/organizers.ts). */
type OrganizerExportRow = inferRouterOutputs<AppRouter>["organizers"]["exportPage"]["rows"][number];

/** The export's filters: the procedure's input without the paging. */
type OrganizerExportFilters = Omit<
  inferRouterInputs<AppRouter>["organizers"]["exportPage"],
  "after" | "limit"
>;

type ExportPage = (
  input: OrganizerExportFilters & { after?: string },
) => Promise<{ rows: OrganizerExportRow[]; total?: number; next?: string }>;

/**
 * Pages through the organizers export (keyset pages of 500 until the server says there is no next
 * page: never truncated) and returns the CSV file's parts; `onProgress` sees rows done / total.
 */
export async function organizerCsv(
  exportPage: ExportPage,
  filters: OrganizerExportFilters,
  onProgress: (done: number, total: number) => void,
): Promise<{ parts: string[]; rows: number }> {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const parts: string[] = [organizerCsvStart()];
  let after: string | undefined;
  let done = 0;
  let total = 0;
  onProgress(0, 0);
  do {
    const page = await exportPage({ ...filters, after });
    if (page.total !== undefined) total = page.total;
    parts.push(organizerCsvLines(page.rows, timeZone));
    done += page.rows.length;
    onProgress(done, total);
    after = page.next;
  } while (after);
  return { parts, rows: done };
}

/**
 * Hands the assembled CSV to the browser as a download, named as the platform's, in the browser's
 * time zone like its dates.
 */
export function downloadCsv(parts: string[], what: string) {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  saveCsv(parts, PLATFORM_EXPORT_OWNER, what, timeZone);
}
