/**
 * The one donor export: docs/steering/research/domain.md §5.1's columns, header and cell declared once.
 * Pure, so the browser builds it from pages (with progress) and tests build the very same file.
 */
import { CSV_BOM, csvRow, isoWithOffset, yesNo } from "../csv";
import { toMajorString } from "../money";

/** worker/donors/present.ts builds it with `satisfies DonorCsvRow`, so tsc holds server and file together. */
export interface DonorCsvRow {
  donorId: string;
  name: string;
  type: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  email: string | null;
  phone: string | null;
  addressLine1: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  createdAt: number;
  firstGiftAt: number | null;
  lastGiftAt: number | null;
  donationCount: number;
  lifetimeMinor: number;
  /** The organization's default currency: every donor total is in it. */
  currency: string;
  largestGiftMinor: number;
  averageGiftMinor: number;
  donorType: string;
  tier: string | null;
  /** Tag names joined with "; ", sorted by name. */
  tags: string;
  emailOptIn: boolean;
  phoneOptIn: boolean;
  mailOptIn: boolean;
}

export interface CsvColumn<R> {
  header: string;
  /** csvCell quotes and defuses it; instants in the organization's time zone. */
  cell: (row: R, timeZone: string) => unknown;
}

export const DONOR_COLUMNS: readonly CsvColumn<DonorCsvRow>[] = [
  { header: "donor_id", cell: (r) => r.donorId },
  { header: "name", cell: (r) => r.name },
  { header: "type", cell: (r) => r.type },
  { header: "first_name", cell: (r) => r.firstName },
  { header: "last_name", cell: (r) => r.lastName },
  { header: "company", cell: (r) => r.company },
  { header: "email", cell: (r) => r.email },
  { header: "phone", cell: (r) => r.phone },
  { header: "address_line1", cell: (r) => r.addressLine1 },
  { header: "city", cell: (r) => r.city },
  { header: "region", cell: (r) => r.region },
  { header: "postal_code", cell: (r) => r.postalCode },
  { header: "country", cell: (r) => r.country },
  { header: "created_at", cell: (r, tz) => isoWithOffset(r.createdAt, tz) },
  { header: "first_donation_at", cell: (r, tz) => isoWithOffset(r.firstGiftAt, tz) },
  { header: "last_donation_at", cell: (r, tz) => isoWithOffset(r.lastGiftAt, tz) },
  { header: "donations_count", cell: (r) => r.donationCount },
  { header: "lifetime_amount", cell: (r) => toMajorString(r.lifetimeMinor, r.currency) },
  { header: "currency", cell: (r) => r.currency },
  { header: "largest_gift", cell: (r) => toMajorString(r.largestGiftMinor, r.currency) },
  { header: "average_gift", cell: (r) => toMajorString(r.averageGiftMinor, r.currency) },
  { header: "donor_type", cell: (r) => r.donorType },
  { header: "tier", cell: (r) => r.tier },
  { header: "tags", cell: (r) => r.tags },
  { header: "email_opt_in", cell: (r) => yesNo(r.emailOptIn) },
  { header: "phone_opt_in", cell: (r) => yesNo(r.phoneOptIn) },
  { header: "mail_opt_in", cell: (r) => yesNo(r.mailOptIn) },
];

export const DONOR_CSV_HEADER: readonly string[] = DONOR_COLUMNS.map((c) => c.header);

export const donorCsvStart = () => CSV_BOM + csvRow(DONOR_CSV_HEADER);

export function donorCsvLines(rows: readonly DonorCsvRow[], timeZone: string): string {
  let out = "";
  for (const r of rows) out += csvRow(DONOR_COLUMNS.map((c) => c.cell(r, timeZone)));
  return out;
}
