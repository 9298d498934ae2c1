/**
 * The reports' choices, shared by the tRPC inputs and the /reports URL. The URL schema loads on every
 * page (decision 012): import nothing here but zod/mini, core/labels.ts and types.
 */
import { z } from "zod/mini";
import { PAYMENT_METHOD_MAX } from "./labels";
import type { StatementBasis } from "./receipts";

/** LYBUNT and SYBUNT are two lists of the "lapsed" report. */
export const REPORT_VIEWS = ["giving", "retention", "cohorts", "pyramid", "lapsed", "campaigns"] as const;
export type ReportView = (typeof REPORT_VIEWS)[number];

export const LAPSED_KINDS = ["lybunt", "sybunt"] as const;
export type LapsedKind = (typeof LAPSED_KINDS)[number];

/** Spelled out, not imported from core/receipts.ts; tsc holds them equal. */
export const YEAR_BASES = ["calendar", "fiscal"] as const;
export type YearBasis = (typeof YEAR_BASES)[number];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type YearBasesMatch = Holds<Same<YearBasis, StatementBasis>>;

/** Gifts are dated from 1970 to before 2100 (INSTANT_MIN, INSTANT_MAX); FY 2026/27 is 2026. */
export const REPORT_YEAR_MIN = 1970;
const REPORT_YEAR_MAX = 2099;
/** The most years one report covers: a cohort table of 20 × 20 cells still reads on a phone. */
export const REPORT_YEARS_MAX = 20;
export const REPORT_YEARS_DEFAULT = 5;

export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

export const CHART_ALIGNS = ["start", "calendar"] as const;
export type ChartAlign = (typeof CHART_ALIGNS)[number];

/** A processor's own method code included, as /donations takes it. */
export const reportMethod = /* @__PURE__ */ (() =>
  z.string().check(z.minLength(1), z.maxLength(PAYMENT_METHOD_MAX)))();

export const reportId = /* @__PURE__ */ (() => z.string().check(z.minLength(1), z.maxLength(100)))();

export const reportYear = /* @__PURE__ */ (() =>
  z
    .int()
    .check(
      z.minimum(REPORT_YEAR_MIN, `Choose a year from ${REPORT_YEAR_MIN}`),
      z.maximum(REPORT_YEAR_MAX, `Choose a year before ${REPORT_YEAR_MAX + 1}`),
    ))();

/** Whether `toYear` is after the current year needs the zone and fiscal year: the service checks that. */
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
