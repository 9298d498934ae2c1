/** Calendar days in an organization's time zone (DESIGN §4: buckets and filters use it). */
const formatters = new Map<string, Intl.DateTimeFormat>();
const partFormatters = new Map<string, Intl.DateTimeFormat>();

/** The largest |ms| a Date holds (ECMA-262 §21.4.1.1): ±100 000 000 days around 1970. */
export const DATE_RANGE_MS = 8.64e15;

/** Intl and toISOString throw RangeError on anything else. */
export function isDateMs(ms: number): boolean {
  return ms >= -DATE_RANGE_MS && ms <= DATE_RANGE_MS;
}

/**
 * Always YYYY-MM-DD. An instant with no such day (NaN, a row older than decision 019's rules) gets the
 * keys that sort before or after every day, so readers and rollups never throw on it.
 */
export function localDay(ms: number, timeZone: string): string {
  if (!isDateMs(ms)) return ms > 0 ? DAY_KEY_AFTER : DAY_KEY_BEFORE;
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(timeZone, f);
  }
  if (ms >= DAY_KEY_FROM_MS && ms < DAY_KEY_UNTIL_MS) return f.format(new Date(ms));
  return farLocalDay(ms, timeZone);
}

/** Near or outside years 1000-9999, where the day formatter drops the padding and the era (0000 is 1 BC). */
function farLocalDay(ms: number, timeZone: string): string {
  let y = 0;
  let m = "";
  let d = "";
  let bc = false;
  for (const p of partsFormatter(timeZone).formatToParts(ms)) {
    if (p.type === "year") y = Number(p.value);
    else if (p.type === "month") m = p.value;
    else if (p.type === "day") d = p.value;
    else if (p.type === "era") bc = p.value === "BC";
  }
  if (bc) y = 1 - y;
  if (y < 0) return DAY_KEY_BEFORE;
  if (y > 9999) return DAY_KEY_AFTER;
  return `${String(y).padStart(4, "0")}-${m}-${d}`;
}

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
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
      era: "short",
    });
    partFormatters.set(timeZone, f);
  }
  return f;
}

/** Local wall time minus UTC at `ms`, in ms, to the whole second as the zone data has it. */
export function offsetAt(ms: number, timeZone: string): number {
  if (!isDateMs(ms)) return 0;
  const f = partsFormatter(timeZone);
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
 * The first instant whose local day is `day` or later, even where clocks jump at midnight: the per-day
 * rollups rely on [start(a), start(b + 1)) holding exactly days a..b (decision 013).
 */
export function startOfLocalDay(day: string, timeZone: string): number {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - offsetAt(guess, timeZone);
  const s = guess - offsetAt(first, timeZone);
  const target = addDays(day, 0);
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
 * Day strings sort as text only for four-digit years, so the per-day rollups key instants outside
 * these bounds by DAY_KEY_BEFORE/AFTER; filters outside FILTER_DAY_MIN…MAX skip the rollup.
 */
export const DAY_KEY_FROM_MS = Date.UTC(1000, 0, 2);
export const DAY_KEY_UNTIL_MS = Date.UTC(9999, 0, 1);
export const DAY_KEY_BEFORE = "0000-00-00";
export const DAY_KEY_AFTER = "9999-99-99";
export const FILTER_DAY_MIN = "1000-01-03";
export const FILTER_DAY_MAX = "9998-12-30";

// The .ts extension: scripts/seed-domain.mjs loads this file in Node, which needs it.
export { CALENDAR_DAY_MAX, CALENDAR_DAY_MIN, calendarDayProblem } from "./calendar-day.ts";

export function dayKey(ms: number, timeZone: string): string {
  if (ms < DAY_KEY_FROM_MS) return DAY_KEY_BEFORE;
  if (ms >= DAY_KEY_UNTIL_MS) return DAY_KEY_AFTER;
  return localDay(ms, timeZone);
}

/**
 * [start, end, offsetMs] spans of one UTC offset, so SQL can put an instant on its local day. Probed
 * every 6 hours: zones never change twice within 6 hours.
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
