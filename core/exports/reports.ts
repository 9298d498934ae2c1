/**
 * The reports' CSVs: the rows the screen shows, columns declared once (DESIGN §4). Amounts in major
 * units beside a currency column, rates as fractions, changes as the screen's percent.
 */
import { CSV_BOM, csvRow, isoWithOffset, yesNo } from "../csv";
import { toMajorString } from "../money";

interface Column<R> {
  header: string;
  cell: (row: R, ctx: { currency: string; timeZone: string }) => unknown;
}

/** "0.4286"; blank for 0 of 0. */
const fraction = (r: number | null) => (r === null ? null : Math.round(r * 10_000) / 10_000);
const money = (minor: number, currency: string) => toMajorString(minor, currency);
/** "23.8" for +23.8 %, as the screen shows it. */
const percent = (r: number | null) => (r === null ? null : Math.round(r * 1_000) / 10);

interface GivingCsvRow {
  year: number;
  label: string;
  raisedMinor: number;
  gifts: number;
  donors: number;
  newDonors: number;
  averageMinor: number;
  change: number | null;
}

export const GIVING_COLUMNS: readonly Column<GivingCsvRow>[] = [
  { header: "year", cell: (r) => r.label },
  { header: "raised", cell: (r, c) => money(r.raisedMinor, c.currency) },
  { header: "currency", cell: (_, c) => c.currency },
  { header: "gifts", cell: (r) => r.gifts },
  { header: "donors", cell: (r) => r.donors },
  { header: "new_donors", cell: (r) => r.newDonors },
  { header: "average_gift", cell: (r, c) => money(r.averageMinor, c.currency) },
  { header: "change_vs_previous_year_percent", cell: (r) => percent(r.change) },
];

interface RetentionCsvRow {
  label: string;
  donors: number;
  newDonors: number;
  previousDonors: number;
  retained: number;
  retention: number | null;
  lapsed: number;
  recaptured: number;
  recapture: number | null;
}

export const RETENTION_COLUMNS: readonly Column<RetentionCsvRow>[] = [
  { header: "year", cell: (r) => r.label },
  { header: "donors", cell: (r) => r.donors },
  { header: "new_donors", cell: (r) => r.newDonors },
  { header: "donors_year_before", cell: (r) => r.previousDonors },
  { header: "retained", cell: (r) => r.retained },
  { header: "retention_rate", cell: (r) => fraction(r.retention) },
  { header: "lapsed_before", cell: (r) => r.lapsed },
  { header: "recaptured", cell: (r) => r.recaptured },
  { header: "recapture_rate", cell: (r) => fraction(r.recapture) },
];

/** One cohort cell per line: the long form a spreadsheet pivots. */
export interface CohortCsvRow {
  firstYearLabel: string;
  cohortDonors: number;
  yearLabel: string;
  donors: number;
  share: number | null;
  amountMinor: number;
}

export const COHORT_COLUMNS: readonly Column<CohortCsvRow>[] = [
  { header: "first_gift_year", cell: (r) => r.firstYearLabel },
  { header: "cohort_donors", cell: (r) => r.cohortDonors },
  { header: "year", cell: (r) => r.yearLabel },
  { header: "donors_giving", cell: (r) => r.donors },
  { header: "share", cell: (r) => fraction(r.share) },
  { header: "amount", cell: (r, c) => money(r.amountMinor, c.currency) },
  { header: "currency", cell: (_, c) => c.currency },
];

interface PyramidCsvRow {
  name: string;
  minMinor: number | null;
  maxMinor: number | null;
  donors: number;
  amountMinor: number;
}

export const PYRAMID_COLUMNS: readonly Column<PyramidCsvRow & { year: string }>[] = [
  { header: "year", cell: (r) => r.year },
  { header: "tier", cell: (r) => r.name },
  { header: "from", cell: (r, c) => (r.minMinor === null ? null : money(r.minMinor, c.currency)) },
  { header: "below", cell: (r, c) => (r.maxMinor === null ? null : money(r.maxMinor, c.currency)) },
  { header: "donors", cell: (r) => r.donors },
  { header: "amount", cell: (r, c) => money(r.amountMinor, c.currency) },
  { header: "currency", cell: (_, c) => c.currency },
];

interface CampaignCsvRow {
  id: string;
  title: string;
  raisedMinor: number;
  gifts: number;
  donors: number;
  averageMinor: number;
  medianMinor: number;
  firstGiftAt: number | null;
  lastGiftAt: number | null;
}

export const CAMPAIGN_COLUMNS: readonly Column<CampaignCsvRow & { period: string }>[] = [
  { header: "campaign_id", cell: (r) => r.id },
  { header: "campaign", cell: (r) => r.title },
  { header: "period", cell: (r) => r.period },
  { header: "raised", cell: (r, c) => money(r.raisedMinor, c.currency) },
  { header: "currency", cell: (_, c) => c.currency },
  { header: "gifts", cell: (r) => r.gifts },
  { header: "donors", cell: (r) => r.donors },
  { header: "average_gift", cell: (r, c) => money(r.averageMinor, c.currency) },
  { header: "median_gift", cell: (r, c) => money(r.medianMinor, c.currency) },
  { header: "first_gift_at", cell: (r, c) => isoWithOffset(r.firstGiftAt, c.timeZone) },
  { header: "last_gift_at", cell: (r, c) => isoWithOffset(r.lastGiftAt, c.timeZone) },
];

interface LapsedCsvRow {
  donorId: string;
  name: string;
  email: string | null;
  lastYearLabel: string;
  lastYearMinor: number;
  lastGiftAt: number;
  lifetimeMinor: number;
  gifts: number;
  /** So an appeal reaches only those who consented. */
  emailOptIn: boolean;
  phoneOptIn: boolean;
  mailOptIn: boolean;
}

export const LAPSED_COLUMNS: readonly Column<LapsedCsvRow>[] = [
  { header: "donor_id", cell: (r) => r.donorId },
  { header: "name", cell: (r) => r.name },
  { header: "email", cell: (r) => r.email },
  { header: "last_gift_at", cell: (r, c) => isoWithOffset(r.lastGiftAt, c.timeZone) },
  { header: "last_year_of_giving", cell: (r) => r.lastYearLabel },
  { header: "total_that_year", cell: (r, c) => money(r.lastYearMinor, c.currency) },
  { header: "lifetime_total", cell: (r, c) => money(r.lifetimeMinor, c.currency) },
  { header: "gifts", cell: (r) => r.gifts },
  { header: "currency", cell: (_, c) => c.currency },
  { header: "email_opt_in", cell: (r) => yesNo(r.emailOptIn) },
  { header: "phone_opt_in", cell: (r) => yesNo(r.phoneOptIn) },
  { header: "mail_opt_in", cell: (r) => yesNo(r.mailOptIn) },
];

export function csvStart<R>(columns: readonly Column<R>[]): string {
  return CSV_BOM + csvRow(columns.map((c) => c.header));
}

export function csvLines<R>(
  columns: readonly Column<R>[],
  rows: readonly R[],
  ctx: { currency: string; timeZone: string },
): string {
  let out = "";
  for (const r of rows) out += csvRow(columns.map((c) => c.cell(r, ctx)));
  return out;
}

export function csvFile<R>(
  columns: readonly Column<R>[],
  rows: readonly R[],
  ctx: { currency: string; timeZone: string },
): string {
  return csvStart(columns) + csvLines(columns, rows, ctx);
}
