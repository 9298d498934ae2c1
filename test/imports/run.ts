/**
 * An import as the page runs it (src/features/imports/), through a tRPC caller: read the file's
 * shape, start, send every batch (core/import/runner.ts), finish. The suites under test/imports/
 * drive the Worker with it.
 */
import type { ImportRow } from "@core/import/batch";
import type { ImportField, ImportKind, ImportOptions } from "@core/import/fields";
import { autoMap } from "@core/import/mapping";
import { readShape } from "@core/import/read";
import { sendRows } from "@core/import/runner";
import type { callerFor } from "../fixtures";

export type Caller = Awaited<ReturnType<typeof callerFor>>;

/** A file's SHA-256 in hex, as the page computes it with crypto.subtle. */
export async function sha256(text: string) {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The mapping by header name: each header of `fields` maps to its field, the rest to nothing. */
export function mappingFor(headers: string[], fields: Record<string, ImportField>) {
  return headers.map((h) => fields[h] ?? null);
}

/** The page's starting mapping for `text` (its headers and first rows), by header name. */
export function pageFields(kind: ImportKind, text: string) {
  const shape = readShape(text);
  const mapping = autoMap(
    kind,
    shape.headers,
    shape.sample.map((r) => r.cells),
  );
  const fields: Record<string, ImportField> = {};
  mapping.forEach((f, i) => {
    if (f) fields[shape.headers[i] as string] = f;
  });
  return fields;
}

export const baseOptions = (o: Partial<ImportOptions> = {}): ImportOptions => ({
  dateOrder: "auto",
  decimal: "auto",
  currency: "USD",
  timeZone: "UTC",
  matchPolicy: "fill",
  ...o,
});

export interface RunOptions {
  fields: Record<string, ImportField>;
  options?: Partial<ImportOptions>;
  fileName?: string;
  batchRows?: number;
  /** Stop after this many batches (an interrupted import). */
  stopAfter?: number;
}

/** Starts an import of `text` and sends its rows (all, or `stopAfter` batches); finishes when all were sent. */
export async function runImport(caller: Caller, kind: ImportKind, text: string, o: RunOptions) {
  const firstRowIsData = o.options?.firstRowIsData;
  const shape = readShape(text, { firstRowIsData });
  const fileHash = await sha256(text);
  const totalRows = countLines(text, shape.delimiter, firstRowIsData);
  const imp = await caller.imports.start({
    kind,
    fileName: o.fileName ?? `${kind}.csv`,
    fileHash,
    fileSize: text.length,
    totalRows,
    headers: shape.headers,
    mapping: mappingFor(shape.headers, o.fields),
    options: baseOptions(o.options),
  });
  return continueImport(caller, imp.id, text, o);
}

/** Sends the rows of an import from its nextRow on (a resume), then finishes it. */
export async function continueImport(
  caller: Caller,
  id: string,
  text: string,
  o: { batchRows?: number; stopAfter?: number } = {},
) {
  const imp = await caller.imports.byId({ id });
  const { firstRowIsData } = imp.options;
  const shape = readShape(text, { firstRowIsData });
  const controller = new AbortController();
  let batches = 0;
  const rejected: { row: number; reason: string }[] = [];
  const sent = await sendRows({
    text,
    delimiter: shape.delimiter,
    firstRowIsData,
    columns: shape.headers.length,
    nextRow: imp.nextRow,
    totalRows: imp.totalRows,
    batchRows: o.batchRows,
    signal: controller.signal,
    commit: (rows: ImportRow[]) => caller.imports.commit({ id, rows }),
    onProgress: (_p, r) => {
      rejected.push(...r);
      batches++;
      if (o.stopAfter !== undefined && batches >= o.stopAfter) controller.abort();
    },
  });
  const done = sent.complete ? await caller.imports.finish({ id }) : await caller.imports.byId({ id });
  return { import: done, rejected, complete: sent.complete };
}

function countLines(text: string, delimiter: string, firstRowIsData?: boolean) {
  return readShape(text, { delimiter: delimiter as never, sampleRows: 1_000_000, firstRowIsData }).sample
    .length;
}

/** A CSV from rows of cells (quoted where needed, RFC 4180). */
export function csv(rows: (string | number)[][], sep = ","): string {
  const cell = (c: string | number) => {
    const s = String(c);
    return /[",\n\r;\t]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return `${rows.map((r) => r.map(cell).join(sep)).join("\r\n")}\r\n`;
}
