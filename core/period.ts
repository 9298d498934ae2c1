/**
 * A custom reporting period: two calendar days (YYYY-MM-DD, core/calendar-day.ts), both included,
 * in the organization's time zone. The dashboard and campaign analytics take one instead of "the
 * last N days" (core/schemas.ts `periodInput` refuses bad ones; the services refuse a period that
 * ends after the organization's today). Pure and without zone data: the browser's date picker and
 * URL schemas use it too.
 */

/** The longest custom period, in days: ten years and their leap days. */
export const MAX_PERIOD_DAYS = 3660;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD day (the calendar, not a time zone). */
function dayIndex(day: string): number {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return Math.round(date.getTime() / DAY_MS);
}

function dayOf(index: number): string {
  return new Date(index * DAY_MS).toISOString().slice(0, 10);
}

/** The day `n` days after `day` (before, when n < 0). */
export function shiftDay(day: string, n: number): string {
  return dayOf(dayIndex(day) + n);
}

/** How many days `from`..`to` holds, both included. */
export function periodLength(from: string, to: string): number {
  return dayIndex(to) - dayIndex(from) + 1;
}

/** The period of the same length that ends the day before `from` (the "previous period"). */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  return { from: shiftDay(from, -periodLength(from, to)), to: shiftDay(from, -1) };
}

/**
 * Why `from`..`to` is not a period a report may cover, or null: both days or neither, `from` not
 * after `to`, at most MAX_PERIOD_DAYS, and (when `today` is known) not ending after today.
 * The days themselves are checked by `calendarDay` first.
 */
export function periodProblem(
  p: { from?: string; to?: string },
  today?: string,
): { field: "from" | "to"; message: string } | null {
  if (p.from === undefined && p.to === undefined) return null;
  if (p.from === undefined) return { field: "from", message: "Give the first day of the period too" };
  if (p.to === undefined) return { field: "to", message: "Give the last day of the period too" };
  if (p.from > p.to) return { field: "to", message: "The period ends before it starts" };
  if (periodLength(p.from, p.to) > MAX_PERIOD_DAYS)
    return { field: "from", message: `A period covers at most ${MAX_PERIOD_DAYS} days (ten years)` };
  if (today !== undefined && p.to > today)
    return { field: "to", message: `The period cannot end after today (${today})` };
  return null;
}

/**
 * What a report page asks the server for: the custom period when its URL has a usable one (both
 * days, in order, not too long; the server refuses one ending after today), else the last `days`.
 */
export function reportPeriod(s: { days: number; from?: string; to?: string }): {
  days?: number;
  from?: string;
  to?: string;
} {
  return s.from && s.to && !periodProblem(s) ? { from: s.from, to: s.to } : { days: s.days };
}
