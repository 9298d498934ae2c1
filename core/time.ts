/** Calendar days in an organization's time zone (DESIGN §4: buckets and filters use it). */
const formatters = new Map<string, Intl.DateTimeFormat>();
const partFormatters = new Map<string, Intl.DateTimeFormat>();

/** The largest |ms| a Date holds (ECMA-262 §21.4.1.1): ±100 000 000 days around 1970. */
export const DATE_RANGE_MS = 8.64e15;

/** True for a number a Date can hold (Intl and toISOString throw RangeError on anything else). */
export function isDateMs(ms: number): boolean {
  return ms >= -DATE_RANGE_MS && ms <= DATE_RANGE_MS;
}

/**
 * The local day of `ms`. An instant no Date can hold (a row written before the input rules of
 * docs/decisions/019-shared-input-schemas.md, NaN) has no day: it gets dayKey's keys that sort
 * before or after every real day, so readers and rollups never throw on it.
 */
export function localDay(ms: number, timeZone: string): string {
  if (!isDateMs(ms)) return ms > 0 ? DAY_KEY_AFTER : DAY_KEY_BEFORE;
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(timeZone, f);
  }
  return f.format(new Date(ms));
}

/**
 * Offset (ms) of `timeZone` from UTC at instant `ms`, i.e. local wall time minus UTC, at the whole
 * second (as the zone data has them). The CSV export caches it per 15-minute block (lib/csv.ts).
 */
export function offsetAt(ms: number, timeZone: string): number {
  // No zone data outside the Date range (and Intl throws there): no offset.
  if (!isDateMs(ms)) return 0;
  let f = partFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      // The era, so years before 1 (1 BC is year 0) are not read as positive years.
      era: "short",
    });
    partFormatters.set(timeZone, f);
  }
  const second = Math.floor(ms / 1000) * 1000;
  let bc = false;
  let y = 0;
  let mo = 0;
  let d = 0;
  let h = 0;
  let mi = 0;
  let s = 0;
  for (const p of f.formatToParts(second)) {
    if (p.type === "year") y = Number(p.value);
    else if (p.type === "month") mo = Number(p.value);
    else if (p.type === "day") d = Number(p.value);
    else if (p.type === "hour") h = Number(p.value);
    else if (p.type === "minute") mi = Number(p.value);
    else if (p.type === "second") s = Number(p.value);
    else if (p.type === "era") bc = p.value === "BC";
  }
  if (bc) y = 1 - y;
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear does not.
  const local = new Date(Date.UTC(2000, mo - 1, d, h, mi, s));
  local.setUTCFullYear(y);
  return local.getTime() - second;
}

/**
 * UTC instant at which `day` (YYYY-MM-DD) starts in `timeZone`: the first instant whose local
 * calendar day is `day` or later. Usually local midnight; where the clocks jump at midnight
 * (America/Asuncion, America/Santiago, Africa/Tunis in the past…) midnight does not exist or occurs
 * twice, and the day starts at the jump or at the first midnight. So [startOfLocalDay(a),
 * startOfLocalDay(b + 1)) holds exactly the instants whose localDay is between a and b, which the
 * per-day rollups rely on (decision 013).
 */
export function startOfLocalDay(day: string, timeZone: string): number {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - offsetAt(guess, timeZone);
  const s = guess - offsetAt(first, timeZone);
  const target = addDays(day, 0);
  // Day strings compare as text only for four-digit years (localDay does not pad).
  if (!Number.isFinite(s) || target < FILTER_DAY_MIN || target > FILTER_DAY_MAX) return s;
  const before = (t: number) => localDay(t, timeZone) < target;
  if (!before(s) && before(s - 1)) return s;
  // Rare: bracket the start in 6-hour steps (no zone jumps by more than a day), then bisect.
  let lo = s;
  for (let i = 0; i < 8 && !before(lo); i++) lo -= 6 * 3600_000;
  let hi = s;
  for (let i = 0; i < 8 && before(hi); i++) hi += 6 * 3600_000;
  if (!before(lo) || before(hi)) return s;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (before(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/**
 * The per-day rollups (donation_daily_totals) key a donation by its local day. Day strings sort as
 * text only for four-digit years, so instants before DAY_KEY_FROM_MS or from DAY_KEY_UNTIL_MS on
 * (at least a day inside years 1000 and 9999 in every zone) share one key that sorts before or
 * after every real day. Date filters outside FILTER_DAY_MIN…FILTER_DAY_MAX are answered without the
 * rollup.
 */
export const DAY_KEY_FROM_MS = Date.UTC(1000, 0, 2);
export const DAY_KEY_UNTIL_MS = Date.UTC(9999, 0, 1);
export const DAY_KEY_BEFORE = "0000-00-00";
export const DAY_KEY_AFTER = "9999-99-99";
export const FILTER_DAY_MIN = "1000-01-03";
export const FILTER_DAY_MAX = "9998-12-30";

// The calendar days a filter may name live in ./calendar-day.ts (the browser's URL schemas load
// them in the entry chunk; this module stays in the chunks that use it). With the extension:
// scripts/seed-domain.mjs loads this file in Node, which resolves no extensionless import.
export { CALENDAR_DAY_MAX, CALENDAR_DAY_MIN, calendarDayProblem } from "./calendar-day.ts";

export function dayKey(ms: number, timeZone: string): string {
  if (ms < DAY_KEY_FROM_MS) return DAY_KEY_BEFORE;
  if (ms >= DAY_KEY_UNTIL_MS) return DAY_KEY_AFTER;
  return localDay(ms, timeZone);
}

/**
 * [start, end, offsetMs] spans covering [from, until) on which `timeZone` keeps one UTC offset, so
 * SQL can put an instant on its local day (date((t + offset) / 1000)). Probed every 6 hours and
 * bisected to the millisecond at each change: zones never change twice within 6 hours.
 */
export function offsetSpans(from: number, until: number, timeZone: string): [number, number, number][] {
  const spans: [number, number, number][] = [];
  const step = 6 * 3600_000;
  let start = from;
  let off = offsetAt(from, timeZone);
  for (let t = from; t < until; ) {
    const next = Math.min(t + step, until);
    const o = next < until ? offsetAt(next, timeZone) : off;
    if (o !== off) {
      let lo = t;
      let hi = next;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetAt(mid, timeZone) === off) lo = mid;
        else hi = mid;
      }
      spans.push([start, hi, off]);
      start = hi;
      off = offsetAt(hi, timeZone);
      t = hi;
      continue;
    }
    t = next;
  }
  spans.push([start, until, off]);
  return spans;
}
