/**
 * CSV cells and rows (DESIGN §4): RFC 4180 quoting and a formula guard. Pure, so the browser can build
 * a paged export with the same rules (decision 007). Hot per cell, hence the fast paths.
 */

import { isDateMs, offsetAt } from "./time";

/** Files start with a UTF-8 byte-order mark so Excel reads non-ASCII names correctly. */
export const CSV_BOM = "\uFEFF";

/**
 * First characters that make a spreadsheet run a text cell as a formula (OWASP "CSV Injection",
 * docs/steering/research/security.md). Data, so the SQL of worker/donations/export-page.ts reads it too.
 */
export const FORMULA_GUARD = {
  prefix: "'",
  /** Always a formula (or the control characters that smuggle one): = @ tab CR NUL. */
  always: [61, 64, 9, 13, 0],
  /**
   * + and -: a formula too, unless followed only by `inertAfterSign` with a digit ("-29.30", a phone):
   * nothing there can write a reference, call or DDE, and a guard would turn a refund into text.
   */
  signs: [43, 45],
  inertAfterSign: "0123456789 .()-",
} as const;

const ALWAYS = new Set<number>(FORMULA_GUARD.always);
const SIGNS = new Set<number>(FORMULA_GUARD.signs);
const INERT = new Set<number>([...FORMULA_GUARD.inertAfterSign].map((c) => c.charCodeAt(0)));

/** True when s[from, to) (s[from] being + or -) is a signed number or a phone: data, not a formula. */
function inertSigned(s: string, from: number, to: number): boolean {
  let digit = false;
  for (let i = from + 1; i < to; i++) {
    const c = s.charCodeAt(i);
    if (!INERT.has(c)) return false;
    if (c >= 48 && c <= 57) digit = true;
  }
  return digit;
}

/** True when the text cell s[from, to) would run as a formula (FORMULA_GUARD) and needs the ' first. */
export function needsFormulaGuard(s: string, from = 0, to = s.length): boolean {
  if (to <= from) return false;
  const c = s.charCodeAt(from);
  if (ALWAYS.has(c)) return true;
  return SIGNS.has(c) && !inertSigned(s, from, to);
}

function stringCell(s: string): string {
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
 * Zone offsets cached per one-hour UTC block, only when its first and last second agree; a block holding
 * an offset change is asked per instant. Offset changes are never two within an hour.
 */
const BLOCK = 60 * 60_000;
const MIXED = Number.NaN;
const offsets = new Map<string, Map<number, number>>();

let lastZone = "";
let lastBlock = Number.NaN;
let lastOff = Number.NaN;

function blockOffsetMs(timeZone: string, second: number): number {
  const block = Math.floor(second / BLOCK);
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
/** [0000-01-01, 10000-01-01) UTC: where toISOString writes a four-digit year. */
const FOUR_DIGIT_FROM = -62_167_219_200_000;
const FOUR_DIGIT_UNTIL = 253_402_300_800_000;

/** "YYYY-MM-DDT" of a UTC day, memoized for the last day: exports meet gifts in date order. */
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

function clock(rem: number): string {
  const h = Math.floor(rem / 3_600_000);
  const m = Math.floor((rem - h * 3_600_000) / 60_000);
  const s = Math.floor((rem - h * 3_600_000 - m * 60_000) / 1000);
  return `${pad2(h)}:${pad2(m)}:${pad2(s)}`;
}

/** A consent or other flag as every export spells it. */
export const yesNo = (v: boolean) => (v ? "yes" : "no");

/**
 * Exactly `new Date(ms).toISOString()`, mostly without a Date. Blank for an instant no Date holds
 * (a row older than decision 019's rules): one bad row must not end an export.
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

/** ISO 8601 with the offset of `timeZone` (2026-03-01T09:30:00+01:00); blank like isoUtc. */
export function isoWithOffset(ms: number | null | undefined, timeZone = "UTC"): string {
  if (ms === null || ms === undefined) return "";
  const second = Math.floor(ms / 1000) * 1000;
  const offMs = blockOffsetMs(timeZone, second);
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
 * Every CSV's name (docs/steering/research/domain.md §5): `<org>-<what>-<yyyymmdd-hhmm>.csv`, the minute
 * in the organization's zone, as its exported dates are.
 */
export function exportFileName(org: string, what: string, at: number, timeZone = "UTC"): string {
  const local = isoWithOffset(at, timeZone);
  const stamp = `${local.slice(0, 10).replace(/-/g, "")}-${local.slice(11, 16).replace(":", "")}`;
  return `${safeName(org)}-${safeName(what)}-${stamp}.csv`;
}

/** The organization's whole archive: `<org>-<yyyy-mm-dd>.zip`, the day in its zone. */
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
