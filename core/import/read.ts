/**
 * Reading an import file's rows (docs/decisions/028-csv-import.md): Papa Parse over the decoded text
 * (core/import/encoding.ts decodes it; we never hand Papa the File, whose chunked decoding corrupts
 * characters cut by a chunk boundary), one record at a time, handed on in batches the Worker takes.
 * The import page, the tests and `npm run bench` read files through here, so all three cut rows and
 * number them the same way: the header is row 1, the first record row 2, blank lines skipped.
 */
import Papa from "papaparse";
import { FIRST_DATA_ROW, IMPORT_MAX_CELL, IMPORT_MAX_COLUMNS, type ImportRow } from "./batch.ts";

/** The separators a file may use; Papa guesses among them when none is chosen. */
export const importDelimiters = [",", ";", "\t", "|"] as const;
export type ImportDelimiter = (typeof importDelimiters)[number];

export interface CsvShape {
  headers: string[];
  delimiter: ImportDelimiter;
  /** The first records after the header, for the mapping screen's samples and the preview. */
  sample: ImportRow[];
}

const PARSE = { skipEmptyLines: "greedy" as const, delimitersToGuess: [...importDelimiters] };

/** A problem Papa reports for a record, as the row's refusal says it. */
function problemOf(errors: readonly Papa.ParseError[]): string | undefined {
  const e = errors[0];
  if (!e) return undefined;
  if (e.code === "MissingQuotes") return 'A quoted cell is never closed (a missing " in the file)';
  if (e.code === "InvalidQuotes") return "A quote inside a cell is not doubled";
  return e.message;
}

/** A record as the Worker takes it: cells cut to the limits it enforces, so a long cell is refused there with its reason. */
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

/** The header, the separator and the first `sampleRows` records. */
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

/**
 * Every record from row `from` on, `size` at a time. Papa's parser is paused while the caller works
 * on a batch (sends it, awaits the answer), so only one batch of records is held at a time.
 */
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

/** How many records follow the header (a counting pass: nothing is kept). */
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
