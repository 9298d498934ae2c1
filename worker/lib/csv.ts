/**
 * CSV cells and rows (DESIGN §4 exports): RFC 4180 quoting, and cells a spreadsheet would run as a
 * formula (= + - @ tab CR NUL first, OWASP "CSV injection") prefixed with '. Pure, so the browser
 * can assemble a paged export with the same rules (docs/decisions/007-shared-pure-modules.md).
 * Hot: the donations export calls csvCell 41 times and isoWithOffset once per row, so both take a
 * fast path for the common case (numbers, plain words, a zone offset already known).
 */

import { offsetAt } from "./time";

/** Files start with a UTF-8 byte-order mark so Excel reads non-ASCII names correctly. */
export const CSV_BOM = "\uFEFF";

/** = + - @ tab CR NUL as the first character: a formula to a spreadsheet. */
function isFormulaLead(c: number): boolean {
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13 || c === 0;
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
  const lead = s.length > 0 && isFormulaLead(s.charCodeAt(0));
  if (!quote) return lead ? `'${s}` : s;
  return `"${lead ? "'" : ""}${s.replace(/"/g, '""')}"`;
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return stringCell(value);
  if (typeof value === "number") {
    // Digits, '.', 'e', '+' or letters (NaN, Infinity): only a leading '-' matters.
    const s = String(value);
    return s.charCodeAt(0) === 45 ? `'${s}` : s;
  }
  return stringCell(value instanceof Date ? value.toISOString() : String(value));
}

export function csvRow(values: readonly unknown[]): string {
  let out = "";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ",";
    out += csvCell(values[i]);
  }
  return `${out}\r\n`;
}

/**
 * Zone offsets per 15-minute UTC block: real transitions fall on 15-minute boundaries, and a block
 * is cached only when Intl gives the same offset at its first and last second (else that block is
 * asked per instant, e.g. a local-mean-time switch at 12:07:02). Bounded: cleared when it grows.
 */
const BLOCK = 15 * 60_000;
const MIXED = Number.NaN;
const offsets = new Map<string, Map<number, number>>();

function blockOffsetMs(timeZone: string, second: number): number {
  const block = Math.floor(second / BLOCK);
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
  return Number.isNaN(off) ? offsetAt(second, timeZone) : off;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** ISO 8601 with the offset of `timeZone` (e.g. 2026-03-01T09:30:00+01:00); blank for null. */
export function isoWithOffset(ms: number | null | undefined, timeZone = "UTC"): string {
  if (ms === null || ms === undefined) return "";
  const second = Math.floor(ms / 1000) * 1000;
  const offMs = blockOffsetMs(timeZone, second);
  // The local wall time is UTC shifted by the offset; its ISO form minus "Z" is the local part.
  const local = new Date(second + offMs).toISOString();
  const offsetMin = Math.round(offMs / 60_000);
  const abs = Math.abs(offsetMin);
  const sign = offsetMin < 0 ? "-" : "+";
  return `${local.slice(0, local.length - 5)}${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}
