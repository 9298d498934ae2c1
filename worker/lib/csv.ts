/**
 * CSV cells and rows (DESIGN §4 exports): RFC 4180 quoting, and cells a spreadsheet would run as a
 * formula (= + - @ tab CR NUL first, OWASP "CSV injection") prefixed with '. Pure, so the browser
 * can assemble a paged export with the same rules (docs/decisions/007-shared-pure-modules.md).
 */

/** Files start with a UTF-8 byte-order mark so Excel reads non-ASCII names correctly. */
export const CSV_BOM = "\uFEFF";

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let s = value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r\0]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/** ISO 8601 with the offset of `timeZone` (e.g. 2026-03-01T09:30:00+01:00); blank for null. */
export function isoWithOffset(ms: number | null | undefined, timeZone = "UTC"): string {
  if (ms === null || ms === undefined) return "";
  const d = new Date(ms);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMin = Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  const off = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${off}`;
}
