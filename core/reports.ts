/**
 * The fundraising reports' rules for server and browser; definitions in decision 033. Counted gifts only
 * (core/status.ts COUNTED_SQL), in ONE currency, never adding two; a "donor" is a donor record.
 */
import { type TierRange, tierBands } from "./donor-tiers";
import { statementPeriod, yearLabel } from "./receipts";
import type { ChartAlign, LapsedKind, ReportView, YearBasis } from "./report-filters";
import { addDays, startOfLocalDay } from "./time";

export * from "./report-filters";

/** One line per report, shown on its screen. */
export const REPORT_DEFINITIONS: Readonly<Record<ReportView | LapsedKind, string>> = {
  giving: "Counted donations per year, net of refunds; new donors gave their first donation that year.",
  retention:
    "Retention: donors of the year before who gave again. Recapture: donors lapsed before the year before who came back.",
  cohorts:
    "Donors grouped by the year of their first donation; each cell is the share of them who gave that year.",
  pyramid: "Donors by the tier their giving in the year puts them in (Donor tiers), with what they gave.",
  lapsed: "Donors who stopped giving, biggest givers first.",
  lybunt: "LYBUNT: gave last year but not yet this year.",
  sybunt: "SYBUNT: gave in an earlier year, but neither last year nor this year.",
  campaigns: "Campaigns side by side over the same period, and what each had raised day by day.",
};

export const REPORT_TITLES: Readonly<Record<ReportView, string>> = {
  giving: "Giving by year",
  retention: "Retention",
  cohorts: "Cohorts",
  pyramid: "Giving pyramid",
  lapsed: "Lapsed donors",
  campaigns: "Campaigns",
};

/** The month a year starts in: January for calendar years, the organization's for fiscal ones. */
export function startMonthOf(basis: YearBasis, fiscalYearStartMonth: number): number {
  return basis === "fiscal" ? fiscalYearStartMonth : 1;
}

/** The year holding the local day `day` (YYYY-MM-DD), named by the year it starts in. */
export function yearOfDay(day: string, startMonth: number): number {
  const y = Number(day.slice(0, 4));
  return Number(day.slice(5, 7)) >= startMonth ? y : y - 1;
}

/** A year's name on screen and in files ("2026", "FY 2026/27"). */
export const reportYearLabel = (year: number, startMonth: number) => yearLabel(year, startMonth);

interface ReportYear {
  year: number;
  label: string;
  /** [start, end): the first instant of the year's first local day, and of the next year's. */
  start: number;
  end: number;
}

/** Years as instants in `timeZone`, bounded as year-end statements are, so the two agree. */
export function reportYears(
  from: number,
  to: number,
  basis: YearBasis,
  fiscalYearStartMonth: number,
  timeZone: string,
): ReportYear[] {
  const out: ReportYear[] = [];
  for (let year = from; year <= to; year++) {
    const p = statementPeriod(year, basis, fiscalYearStartMonth, (day) => startOfLocalDay(day, timeZone));
    out.push({ year, label: p.label, start: p.start, end: p.end });
  }
  return out;
}

/** What LYBUNT and SYBUNT measure against: the current year so far and the last complete one. */
export function lapsedYears(today: string, basis: YearBasis, fiscalYearStartMonth: number, timeZone: string) {
  const current = yearOfDay(today, startMonthOf(basis, fiscalYearStartMonth));
  const [last, now] = reportYears(current - 1, current, basis, fiscalYearStartMonth, timeZone) as [
    ReportYear,
    ReportYear,
  ];
  return { last, current: now };
}

/** Per year, the giving the SQL summed (queries.ts `yearlyStatement`). */
interface YearTotals {
  year: number;
  raisedMinor: number;
  gifts: number;
  /** Donor records that gave that year. */
  donors: number;
}

/** Per first-gift year and year: the cohort's givers, gifts and amount. */
interface CohortCell {
  firstYear: number;
  year: number;
  donors: number;
  gifts: number;
  amountMinor: number;
  /** Of `donors`, those who also gave in year − 1. */
  retained: number;
}

const rate = (n: number, d: number) => (d > 0 ? n / d : null);

/**
 * The three year reports over `from`..`to`. `cells` must cover EVERY year with gifts: first years and
 * lapsed donors need the years before the range.
 */
export function yearReports(
  totals: readonly YearTotals[],
  cells: readonly CohortCell[],
  from: number,
  to: number,
  label: (year: number) => string,
) {
  const byYear = new Map(totals.map((t) => [t.year, t]));
  const newDonors = new Map<number, number>();
  const retained = new Map<number, number>();
  const cohort = new Map<string, CohortCell>();
  for (const c of cells) {
    if (c.firstYear === c.year) newDonors.set(c.year, c.donors);
    retained.set(c.year, (retained.get(c.year) ?? 0) + c.retained);
    cohort.set(`${c.firstYear}:${c.year}`, c);
  }
  const donorsIn = (y: number) => byYear.get(y)?.donors ?? 0;
  const newIn = (y: number) => newDonors.get(y) ?? 0;
  const firstYears = [...newDonors.keys()].sort((a, b) => a - b);
  const startedBefore = (y: number) =>
    firstYears.filter((f) => f < y).reduce((n, f) => n + (newDonors.get(f) ?? 0), 0);

  const years: number[] = [];
  for (let y = from; y <= to; y++) years.push(y);
  const giving = years.map((year) => {
    const t = byYear.get(year);
    const prev = byYear.get(year - 1);
    const raisedMinor = t?.raisedMinor ?? 0;
    const gifts = t?.gifts ?? 0;
    return {
      year,
      label: label(year),
      raisedMinor,
      gifts,
      donors: t?.donors ?? 0,
      newDonors: newIn(year),
      averageMinor: gifts ? Math.round(raisedMinor / gifts) : 0,
      change: prev?.raisedMinor ? (raisedMinor - prev.raisedMinor) / prev.raisedMinor : null,
    };
  });
  const retention = years.map((year) => {
    const previousDonors = donorsIn(year - 1);
    const kept = retained.get(year) ?? 0;
    // Lapsed before the year: first gift before year − 1, no gift in year − 1.
    const lapsed = startedBefore(year - 1) - (previousDonors - newIn(year - 1));
    // Givers of the year are new, retained (gave in year − 1) or recaptured (the rest).
    const recaptured = donorsIn(year) - kept - newIn(year);
    return {
      year,
      label: label(year),
      donors: donorsIn(year),
      newDonors: newIn(year),
      previousDonors,
      retained: kept,
      retention: rate(kept, previousDonors),
      lapsed,
      recaptured,
      recapture: rate(recaptured, lapsed),
    };
  });
  const cohorts = years.map((firstYear) => {
    const size = cohort.get(`${firstYear}:${firstYear}`)?.donors ?? 0;
    return {
      firstYear,
      label: label(firstYear),
      donors: size,
      cells: years
        .filter((y) => y >= firstYear)
        .map((year) => {
          const c = cohort.get(`${firstYear}:${year}`);
          return {
            year,
            donors: c?.donors ?? 0,
            amountMinor: c?.amountMinor ?? 0,
            share: rate(c?.donors ?? 0, size),
          };
        }),
    };
  });
  return { giving, retention, cohorts };
}

export interface PyramidTier extends Omit<TierRange, "basis"> {
  name: string;
  color: string;
}

/**
 * The pyramid's [min, max) bands in minor units of the chosen currency. Tier ranges are read as the same
 * count in every currency, as tiers are assigned: no exchange rates are invented.
 */
export function pyramidBands<T extends PyramidTier>(tiers: readonly T[]) {
  return tierBands(tiers).map((b, i) => ({
    index: i,
    minMinor: b.minMinor,
    maxMinor: b.maxMinor,
    tierId: b.tier?.id ?? null,
  }));
}

/** One row per tier, highest first, then "No tier"; `counts[i]` is band i's. */
export function pyramidRows<T extends PyramidTier>(
  tiers: readonly T[],
  bands: readonly { tierId: string | null }[],
  counts: readonly { donors: number; amountMinor: number }[],
) {
  const sum = (id: string | null) =>
    bands.reduce(
      (acc, b, i) =>
        b.tierId === id
          ? {
              donors: acc.donors + (counts[i]?.donors ?? 0),
              amountMinor: acc.amountMinor + (counts[i]?.amountMinor ?? 0),
            }
          : acc,
      { donors: 0, amountMinor: 0 },
    );
  return [
    ...[...tiers]
      .sort((a, b) => b.minMinor - a.minMinor)
      .map((t) => ({
        tierId: t.id,
        name: t.name,
        color: t.color,
        minMinor: t.minMinor,
        maxMinor: t.maxMinor,
        ...sum(t.id),
      })),
    { tierId: null, name: "No tier", color: "#94a3b8", minMinor: null, maxMinor: null, ...sum(null) },
  ];
}

/** A campaign's day with gifts, as the SQL sums it (the organization's local day). */
export interface DayPoint {
  day: string;
  raisedMinor: number;
}

/**
 * A campaign's cumulative raised amount per day. `start`: `day0`..`end`, earlier gifts counted on day 0;
 * `calendar`: `from`..`to`.
 */
export function cumulativeSeries(
  points: readonly DayPoint[],
  align: ChartAlign,
  days: { day0: string; end: string; from: string; to: string },
): { key: string; value: number }[] {
  const first = align === "start" ? days.day0 : days.from;
  const last = align === "start" ? days.end : days.to;
  const sorted = [...points].sort((a, b) => (a.day < b.day ? -1 : 1));
  const out: { key: string; value: number }[] = [];
  let total = 0;
  let i = 0;
  for (let day = first, n = 0; day <= last && n <= 40_000; day = addDays(day, 1), n++) {
    while (i < sorted.length && (sorted[i] as DayPoint).day <= day)
      total += (sorted[i++] as DayPoint).raisedMinor;
    out.push({ key: align === "start" ? String(n) : day, value: total });
  }
  return out;
}
