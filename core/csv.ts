/**
 * CSV cells and rows (DESIGN §4 exports): RFC 4180 quoting, and text cells a spreadsheet would run
 * as a formula (FORMULA_GUARD: OWASP "CSV injection") prefixed with '; numbers, signed amounts and
 * phone numbers are written as they are. Pure, so the browser
 * can assemble a paged export with the same rules (docs/decisions/007-shared-pure-modules.md).
 * Hot: the donations export calls csvCell 41 times and isoWithOffset once per row, so both take a
 * fast path for the common case (numbers, plain words, a zone offset already known).
 */

import { isDateMs, offsetAt } from "./time";

/** Files start with a UTF-8 byte-order mark so Excel reads non-ASCII names correctly. */
export const CSV_BOM = "\uFEFF";

/**
 * When a text cell gets the ' guard (OWASP "CSV Injection",
 * owasp.org/www-community/attacks/CSV_Injection; ASVS 1.2.10, quoted in
 * docs/steering/research/security.md): a spreadsheet runs a cell as a formula when its first
 * character is one of these. The rule is data so every export and the SQL of the donations fast path
 * (worker/donations/export-page.ts) read the same one.
 */
export const FORMULA_GUARD = {
  prefix: "'",
  /** Always a formula (or the control characters that smuggle one): = @ tab CR NUL. */
  always: [61, 64, 9, 13, 0],
  /**
   * + and -: a formula too, unless the whole value is a signed number or a phone number ("-29.30",
   * "+1 503 555 0100"): the sign followed only by these characters, with at least one digit. Without
   * letters, quotes, | ! or an operator other than -, no cell reference, function call or DDE
   * command can be written, and a guard would turn a refund's amount or a phone into text.
   */
  signs: [43, 45],
  inertAfterSign: "0123456789 .()-",
} as const;

const ALWAYS = new Set<number>(FORMULA_GUARD.always);
const SIGNS = new Set<number>(FORMULA_GUARD.signs);
const INERT = new Set<number>([...FORMULA_GUARD.inertAfterSign].map((c) => c.charCodeAt(0)));

/** True when s[from, to) (s[from] being + or -) is a signed number or a phone: data, not a formula. */
export function inertSigned(s: string, from: number, to: number): boolean {
  let digit = false;
  for (let i = from + 1; i < to; i++) {
    const c = s.charCodeAt(i);
    if (!INERT.has(c)) return false;
    if (c >= 48 && c <= 57) digit = true;
  }
  return digit;
}

/**
 * True when the text cell s[from, to) would run as a formula in a spreadsheet (FORMULA_GUARD), so
 * it must be written with the ' first.
 */
export function needsFormulaGuard(s: string, from = 0, to = s.length): boolean {
  if (to <= from) return false;
  const c = s.charCodeAt(from);
  if (ALWAYS.has(c)) return true;
  return SIGNS.has(c) && !inertSigned(s, from, to);
}

function stringCell(s: string): string {
  // One pass: most cells have nothing to quote or defuse and come back as they are.
  let quote = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34 || c === 44 || c === 13 || c === 10) {
      quote = true;
      break;
    }
  }
  const lead = needsFormulaGuard(s);
  if (!quote) return lead ? `'${s}` : s;
  return `"${lead ? "'" : ""}${s.replace(/"/g, '""')}"`;
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return stringCell(value);
  // A number is written as a number: its digits, '.', 'e', '+', '-' (or NaN, Infinity) are no formula.
  if (typeof value === "number") return String(value);
  return stringCell(value instanceof Date ? value.toISOString() : String(value));
}

/** Cells joined by commas, without the line end (a part of a row assembled from pieces). */
export function csvCells(values: readonly unknown[]): string {
  let out = "";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ",";
    out += csvCell(values[i]);
  }
  return out;
}

export function csvRow(values: readonly unknown[]): string {
  return `${csvCells(values)}\r\n`;
}

/**
 * Zone offsets per one-hour UTC block: a block is cached only when Intl gives the same offset at
 * its first and last second, else that block is asked per instant (a block that holds an offset
 * change, at whatever minute and second it falls: a local-mean-time switch at 12:07:02). Offset
 * changes are months apart, never two within an hour. An hour rather than the 15 minutes of
 * before: a year of gifts costs 8 760 pairs of Intl calls instead of 35 040 (≈ 0.4 µs a row of the
 * export at 1M rows). Bounded: cleared when it grows.
 */
const BLOCK = 60 * 60_000;
const MIXED = Number.NaN;
const offsets = new Map<string, Map<number, number>>();

let lastZone = "";
let lastBlock = Number.NaN;
let lastOff = Number.NaN;

function blockOffsetMs(timeZone: string, second: number): number {
  const block = Math.floor(second / BLOCK);
  // Consecutive rows of an export mostly fall in the same block: skip both map look-ups.
  if (block === lastBlock && timeZone === lastZone && !Number.isNaN(lastOff)) return lastOff;
  let zone = offsets.get(timeZone);
  if (!zone) {
    zone = new Map();
    offsets.set(timeZone, zone);
  }
  let off = zone.get(block);
  if (off === undefined) {
    const start = block * BLOCK;
    const first = offsetAt(start, timeZone);
    off = first === offsetAt(start + BLOCK - 1000, timeZone) ? first : MIXED;
    if (zone.size >= 100_000) zone.clear();
    zone.set(block, off);
  }
  lastZone = timeZone;
  lastBlock = block;
  lastOff = off;
  return Number.isNaN(off) ? offsetAt(second, timeZone) : off;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

const DAY = 86_400_000;
/** [0000-01-01, 10000-01-01) UTC: where toISOString writes a four-digit year, so a day's prefix can be reused. */
const FOUR_DIGIT_FROM = -62_167_219_200_000;
const FOUR_DIGIT_UNTIL = 253_402_300_800_000;

/**
 * "YYYY-MM-DDT" of a UTC day number, remembered for the last day asked: an export meets its gifts in
 * date order, so most rows share the previous row's day. One memo per caller (UTC and local columns).
 */
function dayPrefixMemo() {
  let day = Number.NaN;
  let prefix = "";
  return (d: number) => {
    if (d !== day) {
      day = d;
      prefix = new Date(d * DAY).toISOString().slice(0, 11);
    }
    return prefix;
  };
}
const utcPrefix = dayPrefixMemo();
const localPrefix = dayPrefixMemo();

/** "HH:MM:SS" of a millisecond count within a day. */
function clock(rem: number): string {
  const h = Math.floor(rem / 3_600_000);
  const m = Math.floor((rem - h * 3_600_000) / 60_000);
  const s = Math.floor((rem - h * 3_600_000 - m * 60_000) / 1000);
  return `${pad2(h)}:${pad2(m)}:${pad2(s)}`;
}

/** A consent or other flag as every export spells it. */
export const yesNo = (v: boolean) => (v ? "yes" : "no");

/**
 * Exactly `new Date(ms).toISOString()`; without a Date per call for whole-ms instants in years
 * 0000-9999. Blank for an instant no Date holds (a row written before decision 019's rules), which
 * toISOString would throw on: one bad row must not end an export.
 */
export function isoUtc(ms: number): string {
  if (!(ms >= FOUR_DIGIT_FROM && ms < FOUR_DIGIT_UNTIL) || !Number.isInteger(ms))
    return isDateMs(ms) ? new Date(ms).toISOString() : "";
  const day = Math.floor(ms / DAY);
  const rem = ms - day * DAY;
  return `${utcPrefix(day)}${clock(rem)}.${pad3(rem % 1000)}Z`;
}

/** "+01:00" for an offset in ms: the minutes rounded, as the zone data's seconds never print. */
const offsetSuffixes = new Map<number, string>();
function offsetSuffix(offMs: number): string {
  let s = offsetSuffixes.get(offMs);
  if (s === undefined) {
    const offsetMin = Math.round(offMs / 60_000);
    const abs = Math.abs(offsetMin);
    s = `${offsetMin < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
    if (offsetSuffixes.size < 1000) offsetSuffixes.set(offMs, s);
  }
  return s;
}

/**
 * ISO 8601 with the offset of `timeZone` (e.g. 2026-03-01T09:30:00+01:00); blank for null and, like
 * isoUtc, for an instant no Date holds (checked only off the four-digit-year path).
 */
export function isoWithOffset(ms: number | null | undefined, timeZone = "UTC"): string {
  if (ms === null || ms === undefined) return "";
  const second = Math.floor(ms / 1000) * 1000;
  const offMs = blockOffsetMs(timeZone, second);
  // The local wall time is UTC shifted by the offset; its ISO form minus "Z" is the local part.
  const local = second + offMs;
  if (local >= FOUR_DIGIT_FROM && local < FOUR_DIGIT_UNTIL) {
    const day = Math.floor(local / DAY);
    return `${localPrefix(day)}${clock(local - day * DAY)}${offsetSuffix(offMs)}`;
  }
  if (!isDateMs(local)) return "";
  const iso = new Date(local).toISOString();
  return `${iso.slice(0, iso.length - 5)}${offsetSuffix(offMs)}`;
}

/** Whose file it is when no organization is: the platform's own exports (organizers). */
export const PLATFORM_EXPORT_OWNER = "almoner";

/**
 * Every CSV's file name, one pattern (docs/steering/research/domain.md §5): `<org>-<what>-<yyyymmdd-hhmm>.csv`,
 * the minute in the organization's time zone (the one its exported dates are written in). `org` is
 * the organization's slug, or PLATFORM_EXPORT_OWNER for a platform-wide export; both it and `what`
 * are reduced to lower-case letters, digits and dashes, so the name is safe in a header.
 */
export function exportFileName(org: string, what: string, at: number, timeZone = "UTC"): string {
  // "2026-03-01T09:30:00+01:00" → "20260301-0930".
  const local = isoWithOffset(at, timeZone);
  const stamp = `${local.slice(0, 10).replace(/-/g, "")}-${local.slice(11, 16).replace(":", "")}`;
  return `${safeName(org)}-${safeName(what)}-${stamp}.csv`;
}

/**
 * The organization's whole archive (issue 22): `<org>-<yyyy-mm-dd>.zip`, the day in the
 * organization's time zone, the slug reduced as in `exportFileName`.
 */
export function archiveFileName(org: string, at: number, timeZone = "UTC"): string {
  return `${safeName(org)}-${isoWithOffset(at, timeZone).slice(0, 10)}.zip`;
}

/** Lower-case letters, digits and dashes: safe in a header and on every file system. */
function safeName(s: string) {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "export"
  );
}
