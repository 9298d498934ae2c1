/**
 * The donors CSV (research/domain.md §5.1 columns the donor model holds), assembled in the browser
 * from donors.exportPage pages so the list can show progress. Pure, so tests build the very same file.
 */
import { CSV_BOM, csvRow, isoWithOffset } from "@core/csv";
import { toMajorString } from "@core/money";
import type { DonorExportRow } from "../../../worker/trpc/routers/donors";

export const DONOR_CSV_HEADER = [
  "donor_id",
  "name",
  "type",
  "first_name",
  "last_name",
  "company",
  "email",
  "phone",
  "address_line1",
  "city",
  "region",
  "postal_code",
  "country",
  "created_at",
  "first_donation_at",
  "last_donation_at",
  "donations_count",
  "lifetime_amount",
  "currency",
  "largest_gift",
  "average_gift",
  "donor_type",
  "tier",
  "tags",
  "email_opt_in",
  "phone_opt_in",
  "mail_opt_in",
];

const yesNo = (v: boolean) => (v ? "yes" : "no");

export function donorCsvLines(rows: DonorExportRow[], timeZone: string): string {
  return rows
    .map((r) =>
      csvRow([
        r.donorId,
        r.name,
        r.type,
        r.firstName,
        r.lastName,
        r.company,
        r.email,
        r.phone,
        r.addressLine1,
        r.city,
        r.region,
        r.postalCode,
        r.country,
        isoWithOffset(r.createdAt, timeZone),
        isoWithOffset(r.firstGiftAt, timeZone),
        isoWithOffset(r.lastGiftAt, timeZone),
        r.donationCount,
        toMajorString(r.lifetimeMinor, r.currency),
        r.currency,
        toMajorString(r.largestGiftMinor, r.currency),
        toMajorString(r.averageGiftMinor, r.currency),
        r.donorType,
        r.tier,
        r.tags,
        yesNo(r.emailOptIn),
        yesNo(r.phoneOptIn),
        yesNo(r.mailOptIn),
      ]),
    )
    .join("");
}

export const donorCsvStart = () => CSV_BOM + csvRow(DONOR_CSV_HEADER);

/** Every page of the current filters, in order, until the server says there is none left. */
export async function buildDonorCsv(
  fetchPage: (after: string | undefined) => Promise<{
    rows: DonorExportRow[];
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
