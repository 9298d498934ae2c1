/**
 * The calendar days a date filter may name (docs/decisions/019-shared-input-schemas.md). Its own
 * module, pure and without imports, because the browser's URL schemas need it in the entry chunk
 * and a bundler puts a whole module in one chunk: inside core/time.ts it took every
 * time-zone function into the entry (decision 012).
 */

/**
 * The days a date filter may name (core/schemas.ts `calendarDay`): four-digit years, where
 * Date.UTC does not move years 0-99 to the 1900s and toISOString writes no sign, up to the day
 * whose next day (a `to` filter ends where the next day starts) is still one: 1000-01-01 … 9999-12-30.
 */
export const CALENDAR_DAY_MIN = "1000-01-01";
export const CALENDAR_DAY_MAX = "9999-12-30";

/** Why `s` is not a calendar day a filter may name, or null when it is one. */
export function calendarDayProblem(s: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return "Use a YYYY-MM-DD date";
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(2000, mo - 1, d));
  date.setUTCFullYear(y);
  if (mo < 1 || mo > 12 || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d)
    return `${s} is not a day of the calendar`;
  if (s < CALENDAR_DAY_MIN || s > CALENDAR_DAY_MAX)
    return `Use a day between ${CALENDAR_DAY_MIN} and ${CALENDAR_DAY_MAX}`;
  return null;
}
