/**
 * The import page's pure rules (issue 23, docs/decisions/028-csv-import.md): what the mapping must
 * hold, how a field moves between columns, when to ask for the day order or the decimal mark, the
 * rejected rows as a CSV. The reading, mapping and cell parsing themselves are core/import/*; this
 * only decides what the page shows and asks. Pure, so src tests run it.
 */
import { CSV_BOM, csvRow } from "@core/csv";
import type { ImportRow } from "@core/import/batch";
import type { DateOrder, DecimalMark, ImportField, ImportKind } from "@core/import/fields";
import { detectDateOrder, detectDecimal } from "@core/import/values";

export type Mapping = (ImportField | null)[];

/** What the mapping must hold, said as the page says it. */
export function requirementText(kind: ImportKind): string {
  return kind === "donations"
    ? "Map a column to Amount and one to Date."
    : "Map a column to a name (full, first or last), a company or an e-mail.";
}

/** Column `column` takes `field`; a column that had it gives it up (each field comes from one column). */
export function assignField(mapping: Mapping, column: number, field: ImportField | null): Mapping {
  return mapping.map((f, i) => (i === column ? field : field !== null && f === field ? null : f));
}

/** Up to `n` distinct, non-blank values of a column in the sample rows. */
export function columnSamples(rows: readonly ImportRow[], column: number, n = 3): string[] {
  const out: string[] = [];
  for (const r of rows) {
    const v = (r.cells[column] ?? "").trim();
    if (v && !out.includes(v)) out.push(v);
    if (out.length >= n) break;
  }
  return out;
}

/** The values of the columns mapped to `fields`, over `rows` (the options step's evidence). */
export function valuesOf(
  rows: readonly ImportRow[],
  mapping: Mapping,
  fields: readonly ImportField[],
): string[] {
  const cols = mapping.flatMap((f, i) => (f && fields.includes(f) ? [i] : []));
  const out: string[] = [];
  for (const r of rows) for (const c of cols) if (r.cells[c]?.trim()) out.push(r.cells[c] as string);
  return out;
}

export type DateQuestion =
  /** No numeric dates, or ISO ones: nothing to ask, "auto" reads them. */
  | { ask: false; order: "auto" }
  /** A day above 12 told the order: used without asking. */
  | { ask: false; order: "dmy" | "mdy" }
  /** No value tells (03/04/2024 …), or the values disagree: the user chooses. */
  | { ask: true; why: "ambiguous" | "disagree" };

/** Whether to ask for the day order, from the date column's values (core/import/values.ts detectDateOrder). */
export function dateQuestion(samples: readonly string[]): DateQuestion {
  const d = detectDateOrder(samples);
  if (d.ambiguous) return { ask: true, why: "ambiguous" };
  if (d.order === "dmy" || d.order === "mdy") return { ask: false, order: d.order };
  if (d.order === null && hasNumericDayMonth(samples)) return { ask: true, why: "disagree" };
  return { ask: false, order: "auto" };
}

/** A value like 3/4/2024 or 31.12.24: day and month as numbers, the year last. */
function hasNumericDayMonth(samples: readonly string[]) {
  return samples.some((s) => /^\s*\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b/.test(s));
}

export type DecimalQuestion = { ask: false; decimal: DecimalMark } | { ask: true };

/**
 * Whether to ask for the decimal mark, from the amount columns' values (detectDecimal): asked when
 * no value tells and some could be read both ways ("1,250", "2.500"), or when they disagree.
 */
export function decimalQuestion(samples: readonly string[], currencyDecimals: number): DecimalQuestion {
  const mark = detectDecimal(samples);
  if (mark) return { ask: false, decimal: mark };
  if (currencyDecimals === 0) return { ask: false, decimal: "auto" };
  // No mark was told: either every value with a separator reads both ways, or the values disagree.
  const twoWays = samples.some((raw) => /\d[.,]\d/.test(raw));
  return twoWays ? { ask: true } : { ask: false, decimal: "auto" };
}

export const DATE_ORDER_CHOICES: readonly { value: Exclude<DateOrder, "auto" | "ymd">; label: string }[] = [
  { value: "dmy", label: "Day first: 31/12/2024" },
  { value: "mdy", label: "Month first: 12/31/2024" },
];

export const DECIMAL_CHOICES: readonly { value: "." | ","; label: string }[] = [
  { value: ".", label: "Point: 1,234.56" },
  { value: ",", label: "Comma: 1.234,56" },
];

/** "about 2 min left", "about 40 s left", "" before a batch has landed. */
export function timeLeft(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "";
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  const h = Math.floor(seconds / 3600);
  return `about ${h} h ${Math.round((seconds - h * 3600) / 60)} min left`;
}

/** "1.2 MB", "830 KB", "512 bytes". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A file's SHA-256 in hex (the Worker recognises a file to resume by it). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The rejected rows' CSV: the file's own columns in its own order, then "Row" (its row number in the
 * file, the header being row 1) and "Reason". Last, so the file keeps its shape and imports again
 * with the same mapping once fixed (the two extra columns map to nothing). A row refused for holding
 * more cells than the header keeps them all, under "Extra cell 1"… before "Row", so nothing the file
 * had is lost. Cells pass the formula guard (core/csv.ts).
 */
const REJECTED_EXTRA_COLUMNS = ["Row", "Reason"] as const;

function rejectedCsvStart(headers: readonly string[], width: number): string {
  const extra = Array.from({ length: width - headers.length }, (_, i) => `Extra cell ${i + 1}`);
  return `${CSV_BOM}${csvRow([...headers, ...extra, ...REJECTED_EXTRA_COLUMNS])}`;
}

function rejectedCsvLines(
  width: number,
  rows: readonly { row: number; reason: string; cells: readonly string[] }[],
): string {
  let out = "";
  for (const r of rows) {
    const cells = Array.from({ length: width }, (_, i) => r.cells[i] ?? "");
    out += csvRow([...cells, r.row, r.reason]);
  }
  return out;
}

/** "gifts-2024.csv" → "gifts-2024-rejected.csv". */
export function rejectedFileName(fileName: string): string {
  const base = fileName.replace(/\.(csv|txt|tsv)$/i, "") || "import";
  return `${base}-rejected.csv`;
}

/** Every page of an import's rejected rows, in row order, as one CSV (parts for a Blob). */
export async function buildRejectedCsv(
  fetchPage: (after: number) => Promise<{
    headers: string[];
    rows: { row: number; reason: string; cells: string[] }[];
    next: number | null;
  }>,
): Promise<{ parts: string[]; rows: number }> {
  // Every page first: the header row needs the widest refused row's width.
  const pages: Awaited<ReturnType<typeof fetchPage>>[] = [];
  for (let after = 0; ; ) {
    const page = await fetchPage(after);
    pages.push(page);
    if (page.next === null) break;
    after = page.next;
  }
  const headers = pages[0]?.headers ?? [];
  const width = pages.reduce(
    (w, p) => p.rows.reduce((x, r) => Math.max(x, r.cells.length), w),
    headers.length,
  );
  const parts = [rejectedCsvStart(headers, width), ...pages.map((p) => rejectedCsvLines(width, p.rows))];
  return { parts, rows: pages.reduce((n, p) => n + p.rows.length, 0) };
}
