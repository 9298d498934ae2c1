/**
 * The donors CSV assembled in the browser from donors.exportPage pages, so the list can show
 * progress. Its columns are core/exports/donors.ts (the one column list). Pure, so tests build the
 * very same file.
 */
import { type DonorCsvRow, donorCsvLines, donorCsvStart } from "@core/exports/donors";

export { DONOR_CSV_HEADER, donorCsvLines, donorCsvStart } from "@core/exports/donors";

/** Every page of the current filters, in order, until the server says there is none left. */
export async function buildDonorCsv(
  fetchPage: (after: string | undefined) => Promise<{
    rows: readonly DonorCsvRow[];
    total?: number;
    next?: string;
  }>,
  timeZone: string,
  onProgress?: (done: number, total: number) => void,
): Promise<{ parts: string[]; rows: number }> {
  const parts = [donorCsvStart()];
  let after: string | undefined;
  let done = 0;
  let total = 0;
  do {
    const page = await fetchPage(after);
    if (page.total !== undefined) total = page.total;
    parts.push(donorCsvLines(page.rows, timeZone));
    done += page.rows.length;
    onProgress?.(done, total);
    after = page.next;
  } while (after);
  return { parts, rows: done };
}
