/**
 * A custom reporting period: two local calendar days, both included. No zone data, so the browser's
 * date picker and URL schemas use it too.
 */

/** The longest custom period, in days: ten years and their leap days. */
export const MAX_PERIOD_DAYS = 3660;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 on the calendar, not in a time zone. */
function dayIndex(day: string): number {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return Math.round(date.getTime() / DAY_MS);
}

function dayOf(index: number): string {
  return new Date(index * DAY_MS).toISOString().slice(0, 10);
}

export function shiftDay(day: string, n: number): string {
  return dayOf(dayIndex(day) + n);
}

function periodLength(from: string, to: string): number {
  return dayIndex(to) - dayIndex(from) + 1;
}

/** The same length, ending the day before `from`. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  return { from: shiftDay(from, -periodLength(from, to)), to: shiftDay(from, -1) };
}

/** Why `from`..`to` is not a period a report may cover, or null; `calendarDay` checks each day first. */
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

/** The URL's custom period when usable, else the last `days`. */
export function reportPeriod(s: { days: number; from?: string; to?: string }): {
  days?: number;
  from?: string;
  to?: string;
} {
  return s.from && s.to && !periodProblem(s) ? { from: s.from, to: s.to } : { days: s.days };
}
