/**
 * Reading an import file's rows (decision 028), so page, tests and bench number them alike. Papa gets
 * decoded text, never the File: its chunked decoding corrupts characters cut by a chunk boundary.
 */
import Papa from "papaparse";
import { FIRST_DATA_ROW, IMPORT_MAX_CELL, IMPORT_MAX_COLUMNS, type ImportRow } from "./batch.ts";

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

export function readShape(
  text: string,
  o: { delimiter?: ImportDelimiter; sampleRows?: number } = {},
): CsvShape {
  const sampleRows = o.sampleRows ?? 20;
  const out = Papa.parse<string[]>(text, { ...PARSE, delimiter: o.delimiter ?? "", preview: sampleRows + 1 });
  const [head, ...rest] = out.data;
  const headers = (head ?? []).map((h) => String(h ?? "").trim());
  const delimiter = (importDelimiters as readonly string[]).includes(out.meta.delimiter)
    ? (out.meta.delimiter as ImportDelimiter)
    : ",";
  const errors = (i: number) => out.errors.filter((e) => e.row === i + 1);
  return {
    headers,
    delimiter,
    sample: rest.map((r, i) => rowOf(FIRST_DATA_ROW + i, r, errors(i), headers.length)),
  };
}

/** Papa pauses while the caller works on a batch, so only one batch is held at a time. */
export async function* rowBatches(
  text: string,
  o: { delimiter: ImportDelimiter; size: number; from?: number; columns: number },
): AsyncGenerator<ImportRow[]> {
  const from = o.from ?? FIRST_DATA_ROW;
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
      if (record === 1) return; // the header
      const row = FIRST_DATA_ROW + record - 2;
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

/** Records after the header, counted without keeping any. */
export function countRows(text: string, delimiter: ImportDelimiter): number {
  let n = 0;
  Papa.parse(text, {
    ...PARSE,
    delimiter,
    step() {
      n++;
    },
  });
  return Math.max(0, n - 1);
}
