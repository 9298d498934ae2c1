/**
 * The input rules every edge shares (docs/decisions/019-shared-input-schemas.md): tRPC inputs, the
 * donations webhook, the CSV exports' query strings, the auth API and the browser's forms and URL
 * schemas all validate calendar days, currencies, amounts, instants, links and multi-value filters
 * with these, so a value one edge refuses cannot enter through another and break a page later.
 *
 * zod/mini, like core/organization.ts and src/lib/search-params.ts: the browser loads
 * it (decision 012). Pure: no bindings, no server-only imports (decision 022). Each schema is
 * built in a pure closure, so a chunk keeps only those it uses (as app.config.ts does).
 */
import { z } from "zod/mini";
import { CALENDAR_DAY_MAX, CALENDAR_DAY_MIN, calendarDayProblem } from "./calendar-day";
import { CURRENCIES, MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR } from "./currencies";
import { periodProblem } from "./period";
import { isHttpUrl } from "./url";

export { CALENDAR_DAY_MAX, CALENDAR_DAY_MIN, MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR };

/**
 * A calendar day (YYYY-MM-DD) in the organization's time zone, as every date filter takes it: a
 * real day (no 02-30), from CALENDAR_DAY_MIN to CALENDAR_DAY_MAX (core/time.ts says why).
 */
export const calendarDay = /* @__PURE__ */ (() =>
  z.string().check(
    z.superRefine((value, ctx) => {
      const problem = calendarDayProblem(value);
      if (problem) ctx.issues.push({ code: "custom", message: problem, input: value });
    }),
  ))();

/**
 * A custom report period's check (core/period.ts), for an input with optional `from`/`to` days:
 * both or neither, in order, at most MAX_PERIOD_DAYS long. Whether it ends after the
 * organization's today needs its time zone: the services check that.
 */
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

/**
 * A currency the platform takes (CURRENCIES), in any case, as its upper-case code. Unsupported
 * codes, ISO 4217 or not ("XYZ", "ZZ!"), are refused: exponents, formatting and the processor are
 * known only for these.
 */
export const currencyCode = /* @__PURE__ */ (() =>
  z.pipe(
    z.string().check(z.trim(), z.toUpperCase()),
    z.enum(CURRENCIES, { error: (issue) => `Currency ${String(issue.input)} is not supported` }),
  ))();

/**
 * One gift's amount in minor units: whole, from the platform floor to the processor cap, the same
 * count in every currency (core/money.ts MIN_AMOUNT_MINOR / MAX_AMOUNT_MINOR).
 */
export const amountMinor = /* @__PURE__ */ (() =>
  z
    .int()
    .check(
      z.minimum(MIN_AMOUNT_MINOR, "At least 1.00 (100 minor units)"),
      z.maximum(MAX_AMOUNT_MINOR, "At most 999,999.99 (99,999,999 minor units)"),
    ))();

/**
 * Instants the platform stores (epoch milliseconds): from 1970-01-01T00:00:00Z, the epoch (a
 * negative instant is a bug, not a gift), to 2100-01-01T00:00:00Z (a campaign or a badge may end
 * years ahead, not centuries). Every such instant is a Date and has a four-digit local day.
 */
export const INSTANT_MIN = 0;
export const INSTANT_MAX = 4_102_444_800_000; // Date.UTC(2100, 0, 1)

export const instant = /* @__PURE__ */ (() =>
  z
    .int()
    .check(
      z.minimum(INSTANT_MIN, "Use a date from 1970 on"),
      z.maximum(INSTANT_MAX, "Use a date before 2100"),
    ))();

/**
 * How far ahead of the server's clock a gift may be dated: the webhook's signature tolerance
 * (app.config.ts donations.webhookToleranceSeconds), so a processor's clock may run that far ahead.
 */
export const GIFT_CLOCK_SKEW_MS = 5 * 60_000;

/** When a gift was made: an `instant`, and not in the future (beyond GIFT_CLOCK_SKEW_MS). */
export const giftInstant = /* @__PURE__ */ (() =>
  z.int().check(
    z.minimum(INSTANT_MIN, "Use a date from 1970 on"),
    z.refine((ms) => ms <= Date.now() + GIFT_CLOCK_SKEW_MS, "The gift date cannot be in the future"),
  ))();

/** Why `ms` cannot be a gift's date, or null (the webhook's 422 message). */
export function giftInstantProblem(ms: number): string | null {
  const r = giftInstant.safeParse(ms);
  return r.success ? null : (r.error.issues[0]?.message ?? "Invalid date");
}

/** An absolute http: or https: URL (core/url.ts isHttpUrl), trimmed, at most 2 048 characters. */
export const httpUrl = /* @__PURE__ */ (() =>
  z.string().check(z.trim(), z.refine(isHttpUrl, "Use an address starting with https:// or http://")))();

/**
 * A multi-value filter of a fixed set (`?status=completed,pending`): at most as many values as the
 * set has, each kept once. Bounded, so an IN list of its values always fits in one D1 statement
 * (100 bound parameters, worker/lib/list.ts D1_MAX_PARAMS).
 */
export function enumSet<const T extends readonly [string, ...string[]]>(values: T) {
  return z.pipe(
    z.array(z.enum(values)).check(z.maxLength(values.length, `At most ${values.length} values`)),
    z.transform((list: T[number][]) => [...new Set(list)]),
  );
}
