// The days a date filter may name (decision 019). No imports: the entry chunk loads it (decision 012).

/** Four-digit years only, and a day whose next day is one too: a `to` filter ends where that starts. */
export const CALENDAR_DAY_MIN = "1000-01-01";
export const CALENDAR_DAY_MAX = "9999-12-30";

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
