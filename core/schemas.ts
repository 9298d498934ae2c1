/**
 * The input rules every edge shares, so a value one edge refuses cannot enter through another
 * (decision 019). zod/mini in pure closures, so a browser chunk keeps only what it uses (decision 012).
 */
import { z } from "zod/mini";
import { CALENDAR_DAY_MAX, CALENDAR_DAY_MIN, calendarDayProblem } from "./calendar-day";
import { CURRENCIES, MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR } from "./currencies";
import { periodProblem } from "./period";
import { isHttpUrl } from "./url";

export { CALENDAR_DAY_MAX, CALENDAR_DAY_MIN, MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR };

/** A real YYYY-MM-DD day (no 02-30) within CALENDAR_DAY_MIN..MAX, as every date filter takes it. */
export const calendarDay = /* @__PURE__ */ (() =>
  z.string().check(
    z.superRefine((value, ctx) => {
      const problem = calendarDayProblem(value);
      if (problem) ctx.issues.push({ code: "custom", message: problem, input: value });
    }),
  ))();

/** core/period.ts's check; whether it ends after today needs the zone, so the services check that. */
export function checkPeriod(
  value: { from?: string; to?: string },
  ctx: {
    issues: {
      push(issue: { code: "custom"; message: string; input: unknown; path: PropertyKey[] }): unknown;
    };
  },
) {
  const problem = periodProblem(value);
  if (problem)
    ctx.issues.push({ code: "custom", message: problem.message, input: value, path: [problem.field] });
}

/** One of CURRENCIES, in any case, as upper case: exponents and the processor are known only for these. */
export const currencyCode = /* @__PURE__ */ (() =>
  z.pipe(
    z.string().check(z.trim(), z.toUpperCase()),
    z.enum(CURRENCIES, { error: (issue) => `Currency ${String(issue.input)} is not supported` }),
  ))();

/** One gift's amount in minor units: the same floor and cap count in every currency. */
export const amountMinor = /* @__PURE__ */ (() =>
  z
    .int()
    .check(
      z.minimum(MIN_AMOUNT_MINOR, "At least 1.00 (100 minor units)"),
      z.maximum(MAX_AMOUNT_MINOR, "At most 999,999.99 (99,999,999 minor units)"),
    ))();

/** Stored instants (epoch ms): a negative one is a bug, not a gift; each has a four-digit local day. */
export const INSTANT_MIN = 0;
export const INSTANT_MAX = 4_102_444_800_000; // Date.UTC(2100, 0, 1)

export const instant = /* @__PURE__ */ (() =>
  z
    .int()
    .check(
      z.minimum(INSTANT_MIN, "Use a date from 1970 on"),
      z.maximum(INSTANT_MAX, "Use a date before 2100"),
    ))();

/** The webhook's 422 message for a plan's dates, or null. */
export function instantProblem(ms: number): string | null {
  const r = instant.safeParse(ms);
  return r.success ? null : (r.error.issues[0]?.message ?? "Invalid date");
}

/** How far ahead a gift may be dated: the webhook's signature tolerance (webhookToleranceSeconds). */
export const GIFT_CLOCK_SKEW_MS = 5 * 60_000;

export const giftInstant = /* @__PURE__ */ (() =>
  z.int().check(
    z.minimum(INSTANT_MIN, "Use a date from 1970 on"),
    z.refine((ms) => ms <= Date.now() + GIFT_CLOCK_SKEW_MS, "The donation date cannot be in the future"),
  ))();

export function giftInstantProblem(ms: number): string | null {
  const r = giftInstant.safeParse(ms);
  return r.success ? null : (r.error.issues[0]?.message ?? "Invalid date");
}

/** An absolute http(s) URL, at most 2 048 characters. */
export const httpUrl = /* @__PURE__ */ (() =>
  z.string().check(z.trim(), z.refine(isHttpUrl, "Use an address starting with https:// or http://")))();

/** A multi-value filter, bounded by the set so its IN list fits one D1 statement (D1_MAX_PARAMS). */
export function enumSet<const T extends readonly [string, ...string[]]>(values: T) {
  return z.pipe(
    z.array(z.enum(values)).check(z.maxLength(values.length, `At most ${values.length} values`)),
    z.transform((list: T[number][]) => [...new Set(list)]),
  );
}
