/**
 * Reading an import file's rows (decision 028), so page, tests and bench number them alike. Papa gets
 * decoded text, never the File: its chunked decoding corrupts characters cut by a chunk boundary.
 */
import Papa from "papaparse";
import { firstDataRow, IMPORT_MAX_CELL, IMPORT_MAX_COLUMNS, type ImportRow } from "./batch.ts";

/** The separators a file may use; Papa guesses among them when none is chosen. */
export const importDelimiters = [",", ";", "\t", "|"] as const;
export type ImportDelimiter = (typeof importDelimiters)[number];

export interface CsvShape {
  headers: string[];
  delimiter: ImportDelimiter;
  sample: ImportRow[];
}

const PARSE = { skipEmptyLines: "greedy" as const, delimitersToGuess: [...importDelimiters] };

function problemOf(errors: readonly Papa.ParseError[]): string | undefined {
  const e = errors[0];
  if (!e) return undefined;
  if (e.code === "MissingQuotes") return 'A quoted cell is never closed (a missing " in the file)';
  if (e.code === "InvalidQuotes") return "A quote inside a cell is not doubled";
  return e.message;
}

/** Cells cut to the Worker's limits; `problem` still tells it to refuse the row. */
function rowOf(row: number, data: unknown, errors: readonly Papa.ParseError[], columns: number): ImportRow {
  const cells = (Array.isArray(data) ? data : []).map((c) => String(c ?? ""));
  let problem = problemOf(errors);
  if (!problem && cells.length > columns)
    problem = `The row has ${cells.length} cells but the header has ${columns} (an unquoted separator in a value?)`;
  if (!problem && cells.some((c) => c.length > IMPORT_MAX_CELL))
    problem = `A cell holds more than ${IMPORT_MAX_CELL} characters`;
  return {
    row,
    cells: cells.slice(0, IMPORT_MAX_COLUMNS).map((c) => c.slice(0, IMPORT_MAX_CELL)),
    ...(problem ? { problem } : {}),
  };
}

/** Names of the columns of a file whose first row is data. */
export const columnNames = (n: number) => Array.from({ length: n }, (_, i) => `Column ${i + 1}`);

export function readShape(
  text: string,
  o: { delimiter?: ImportDelimiter; sampleRows?: number; firstRowIsData?: boolean } = {},
): CsvShape {
  const sampleRows = o.sampleRows ?? 20;
  const out = Papa.parse<string[]>(text, { ...PARSE, delimiter: o.delimiter ?? "", preview: sampleRows + 1 });
  if (o.firstRowIsData) out.data.unshift(columnNames(out.data[0]?.length ?? 0));
  const [head, ...rest] = out.data;
  const headers = (head ?? []).map((h) => String(h ?? "").trim());
  const delimiter = (importDelimiters as readonly string[]).includes(out.meta.delimiter)
    ? (out.meta.delimiter as ImportDelimiter)
    : ",";
  const first = firstDataRow(o);
  // Papa's error rows count records from 0, the header included.
  const errors = (i: number) => out.errors.filter((e) => e.row === i + first - 1);
  return {
    headers,
    delimiter,
    sample: rest.slice(0, sampleRows).map((r, i) => rowOf(first + i, r, errors(i), headers.length)),
  };
}

/** Papa pauses while the caller works on a batch, so only one batch is held at a time. */
export async function* rowBatches(
  text: string,
  o: { delimiter: ImportDelimiter; size: number; from?: number; columns: number; firstRowIsData?: boolean },
): AsyncGenerator<ImportRow[]> {
  const first = firstDataRow(o);
  const from = o.from ?? first;
  let batch: ImportRow[] = [];
  let ready: (() => void) | null = null;
  let finished = false;
  let failure: unknown = null;
  let parser: Papa.Parser | null = null;
  let record = 0;
  const full: ImportRow[][] = [];
  Papa.parse<string[]>(text, {
    ...PARSE,
    delimiter: o.delimiter,
    step(result, p) {
      parser = p;
      record++;
      if (record < first) return; // the header
      const row = record;
      if (row < from) return;
      batch.push(rowOf(row, result.data, result.errors, o.columns));
      if (batch.length >= o.size) {
        full.push(batch);
        batch = [];
        p.pause();
        ready?.();
      }
    },
    complete() {
      finished = true;
      ready?.();
    },
    error(e: unknown) {
      failure = e;
      finished = true;
      ready?.();
    },
  });
  for (;;) {
    if (failure) throw failure;
    const next = full.shift();
    if (next) {
      yield next;
      (parser as Papa.Parser | null)?.resume();
      continue;
    }
    if (finished) break;
    await new Promise<void>((resolve) => {
      ready = resolve;
    });
    ready = null;
  }
  if (batch.length) yield batch;
}

/** Data records (after the header, if the file has one), counted without keeping any. */
export function countRows(text: string, delimiter: ImportDelimiter, firstRowIsData = false): number {
  let n = 0;
  Papa.parse(text, {
    ...PARSE,
    delimiter,
    step() {
      n++;
    },
  });
  return Math.max(0, n - firstDataRow({ firstRowIsData }) + 1);
}
