/**
 * The recurring plans CSV, assembled in the browser from plans.exportPage pages (as the donors
 * export is, src/features/donors/export.ts) so the list can show progress. Each column is declared
 * once with its header and its cell; codes stay codes ("past_due", "month"), as every export keeps
 * them. Pure, so a test can build the very same file.
 */
import { CSV_BOM, csvRow, isoWithOffset } from "@core/csv";

export { saveCsv } from "~/lib/save-csv";

import { toMajorString } from "@core/money";
import type { RouterOutputs } from "~/lib/api-types";

type PlanCsvRow = RouterOutputs["plans"]["exportPage"]["rows"][number];

interface CsvColumn {
  header: string;
  /** The cell's value (csvCell quotes and defuses it); instants in the organization's time zone. */
  cell: (row: PlanCsvRow, timeZone: string) => unknown;
}

const PLAN_COLUMNS: readonly CsvColumn[] = [
  { header: "plan_id", cell: (r) => r.id },
  { header: "donor_name", cell: (r) => r.donorName },
  { header: "donor_email", cell: (r) => r.donorEmail },
  { header: "campaign", cell: (r) => r.campaignTitle },
  { header: "amount", cell: (r) => toMajorString(r.amountMinor, r.currency) },
  { header: "currency", cell: (r) => r.currency },
  { header: "interval", cell: (r) => r.interval },
  { header: "monthly_amount", cell: (r) => toMajorString(r.monthlyMinor, r.currency) },
  { header: "status", cell: (r) => r.status },
  { header: "started_at", cell: (r, tz) => isoWithOffset(r.startedAt, tz) },
  { header: "next_expected_at", cell: (r, tz) => isoWithOffset(r.nextExpectedAt, tz) },
  { header: "gifts_count", cell: (r) => r.giftCount },
  { header: "given_amount", cell: (r) => toMajorString(r.givenMinor, r.currency) },
  { header: "last_gift_at", cell: (r, tz) => isoWithOffset(r.lastGiftAt, tz) },
  { header: "missed_count", cell: (r) => r.missedCount },
  { header: "source", cell: (r) => r.source },
  { header: "gateway", cell: (r) => r.gateway },
  { header: "subscription_id", cell: (r) => r.gatewaySubscriptionId },
];

const PLAN_CSV_HEADER = PLAN_COLUMNS.map((c) => c.header);

function planCsvLines(rows: readonly PlanCsvRow[], timeZone: string): string {
  let out = "";
  for (const r of rows) out += csvRow(PLAN_COLUMNS.map((c) => c.cell(r, timeZone)));
  return out;
}

/**
 * Every page of the current filters, in order, until the server says there is none left (never
 * truncated); `onProgress` sees the rows done so far.
 */
export async function buildPlanCsv(
  fetchPage: (after: string | undefined) => Promise<{ rows: readonly PlanCsvRow[]; next: string | null }>,
  timeZone: string,
  onProgress?: (done: number) => void,
): Promise<{ parts: string[]; rows: number }> {
  const parts = [`${CSV_BOM}${csvRow(PLAN_CSV_HEADER)}`];
  let after: string | undefined;
  let done = 0;
  do {
    const page = await fetchPage(after);
    parts.push(planCsvLines(page.rows, timeZone));
    done += page.rows.length;
    onProgress?.(done);
    after = page.next ?? undefined;
  } while (after);
  return { parts, rows: done };
}
