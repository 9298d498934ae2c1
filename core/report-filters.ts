/**
 * The fundraising reports' choices (issue 27): which report, which kind of year, which years, how
 * many campaigns side by side. The tRPC inputs (worker/reports/router.ts) and the /reports URL
 * (src/features/reports/search.ts) are built from these, so a value one refuses cannot reach the
 * other. The URL schema loads with the route tree on every page (docs/decisions/012): this module
 * imports zod/mini and core/labels.ts (which imports nothing) only, and spells core/receipts.ts's
 * year bases rather than importing that module (tsc holds them equal), as
 * src/features/plans/search.ts does for core/plans.ts.
 */
import { z } from "zod/mini";
import { PAYMENT_METHOD_MAX } from "./labels";
import type { StatementBasis } from "./receipts";

/** The six reports, as the URL names them; LYBUNT and SYBUNT are two lists of one report. */
export const REPORT_VIEWS = ["giving", "retention", "cohorts", "pyramid", "lapsed", "campaigns"] as const;
export type ReportView = (typeof REPORT_VIEWS)[number];

export const LAPSED_KINDS = ["lybunt", "sybunt"] as const;
export type LapsedKind = (typeof LAPSED_KINDS)[number];

/** Calendar years or the organization's fiscal years (organization.fiscal_year_start_month). */
export const YEAR_BASES = ["calendar", "fiscal"] as const;
export type YearBasis = (typeof YEAR_BASES)[number];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** Types only (nothing at run time): tsc fails here when core/receipts.ts statementBases changes. */
export type YearBasesMatch = Holds<Same<YearBasis, StatementBasis>>;

/**
 * The years a report may name (a year is named by the year it starts in: FY 2026/27 is 2026):
 * gifts are dated from 1970 (core/schemas.ts INSTANT_MIN) and before 2100 (INSTANT_MAX).
 */
export const REPORT_YEAR_MIN = 1970;
export const REPORT_YEAR_MAX = 2099;
/** The most years one report covers: a cohort table of 20 × 20 cells still reads on a phone. */
export const REPORT_YEARS_MAX = 20;
/** How many years a report shows when none are chosen: the current one and the four before. */
export const REPORT_YEARS_DEFAULT = 5;

/** Campaigns compared side by side. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

/** How the cumulative chart lines campaigns up: by days since each started, or on the calendar. */
export const CHART_ALIGNS = ["start", "calendar"] as const;
export type ChartAlign = (typeof CHART_ALIGNS)[number];

/**
 * A payment method in the gift filters of /donations, which every report takes too (with the
 * frequency and source of core/labels.ts): a processor's own code included, as the list takes it.
 */
export const reportMethod = /* @__PURE__ */ (() =>
  z.string().check(z.minLength(1), z.maxLength(PAYMENT_METHOD_MAX)))();

/** A record id in a filter (a campaign, tier or tag): scoped to the caller's organization. */
export const reportId = /* @__PURE__ */ (() => z.string().check(z.minLength(1), z.maxLength(100)))();

export const reportYear = /* @__PURE__ */ (() =>
  z
    .int()
    .check(
      z.minimum(REPORT_YEAR_MIN, `Choose a year from ${REPORT_YEAR_MIN}`),
      z.maximum(REPORT_YEAR_MAX, `Choose a year before ${REPORT_YEAR_MAX + 1}`),
    ))();

/**
 * Why `fromYear`..`toYear` is not a range a report may cover, or null: in order and at most
 * REPORT_YEARS_MAX years (each bound alone is `reportYear`'s). Whether `toYear` is after the
 * current year needs the organization's zone and fiscal year: the service checks that.
 */
export function yearRangeProblem(r: {
  fromYear?: number;
  toYear?: number;
}): { field: "fromYear" | "toYear"; message: string } | null {
  if (r.fromYear === undefined || r.toYear === undefined) return null;
  if (r.fromYear > r.toYear) return { field: "toYear", message: "The last year is before the first year" };
  if (r.toYear - r.fromYear + 1 > REPORT_YEARS_MAX)
    return { field: "fromYear", message: `A report covers at most ${REPORT_YEARS_MAX} years` };
  return null;
}
