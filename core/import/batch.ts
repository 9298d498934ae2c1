/** Import batches as the browser sends them (decision 028): the page cuts them as procedures take them. */
import { z } from "zod/mini";

/** One D1 batch writes them; their JSON (one bound parameter) stays far below D1's 2 MB per value. */
export const IMPORT_BATCH_ROWS = 500;

/** A cell holds a long note, not a blob. */
export const IMPORT_MAX_COLUMNS = 200;
export const IMPORT_MAX_CELL = 10_000;

/** The Worker never sees the file, only its rows. */
export const IMPORT_MAX_FILE_BYTES = 100 * 1024 * 1024;

/** The header is row 1, as a spreadsheet counts. */
export const FIRST_DATA_ROW = 2;

/** A file without a header row starts its data at row 1: rows keep the file's own record numbers. */
export const firstDataRow = (o: { firstRowIsData?: boolean }) => (o.firstRowIsData ? 1 : FIRST_DATA_ROW);

const importRow = /* @__PURE__ */ (() =>
  z.strictObject({
    row: z.int().check(z.minimum(1), z.maximum(100_000_000)),
    cells: z
      .array(
        z.string().check(z.maxLength(IMPORT_MAX_CELL, `A cell holds at most ${IMPORT_MAX_CELL} characters`)),
      )
      .check(z.maxLength(IMPORT_MAX_COLUMNS, `At most ${IMPORT_MAX_COLUMNS} columns`)),
    /** Why the browser could not read the row; the Worker refuses it so it lands in the rejected rows. */
    problem: z.optional(z.string().check(z.maxLength(300))),
  }))();
export type ImportRow = z.output<typeof importRow>;

export const importRows = /* @__PURE__ */ (() =>
  z.array(importRow).check(
    z.minLength(1, "Send at least one row"),
    z.maxLength(IMPORT_BATCH_ROWS, `At most ${IMPORT_BATCH_ROWS} rows per batch`),
    z.refine((rows) => rows.every((r, i) => i === 0 || r.row > (rows[i - 1] as ImportRow).row), {
      message: "Rows must be in file order, each once",
    }),
  ))();

/** Makes a row's import happen once: the gift's own id (next month's export has it too), else the row. */
export function importKey(fileHash: string, row: number, externalId?: string | null): string {
  return externalId ? `x:${externalId}` : `f:${fileHash.slice(0, 32)}:${row}`;
}
