/**
 * The shape of what the browser sends the Worker during an import (docs/decisions/028-csv-import.md):
 * rows of raw cells with their row numbers, a batch at a time. Shared so the page cuts its batches
 * exactly as the procedures take them.
 */
import { z } from "zod/mini";

/**
 * Rows per batch: one D1 batch writes them with their donors, rollups and audit row. At 500 the
 * rows' JSON (one bound parameter, `json_each`) stays far below D1's 2 MB per value and a batch
 * is about fifteen statements (docs/performance.md has the import's rate at this size).
 */
export const IMPORT_BATCH_ROWS = 500;

/** The most columns a file may have, and characters a cell may hold (a long note, not a blob). */
export const IMPORT_MAX_COLUMNS = 200;
export const IMPORT_MAX_CELL = 10_000;

/** The largest file the page reads (the Worker never sees the file, only its rows). */
export const IMPORT_MAX_FILE_BYTES = 100 * 1024 * 1024;

/** A row number of the file: the header is row 1, so data starts at 2 (as a spreadsheet counts). */
export const FIRST_DATA_ROW = 2;

export const importRow = /* @__PURE__ */ (() =>
  z.strictObject({
    row: z.int().check(z.minimum(FIRST_DATA_ROW), z.maximum(100_000_000)),
    cells: z
      .array(
        z.string().check(z.maxLength(IMPORT_MAX_CELL, `A cell holds at most ${IMPORT_MAX_CELL} characters`)),
      )
      .check(z.maxLength(IMPORT_MAX_COLUMNS, `At most ${IMPORT_MAX_COLUMNS} columns`)),
    /**
     * Why the browser could not read the row (an unclosed quote, more cells than the header): the
     * Worker refuses the row with this reason, so it lands in the rejected rows like any other.
     */
    problem: z.optional(z.string().check(z.maxLength(300))),
  }))();
export type ImportRow = z.output<typeof importRow>;

/** One batch: 1 to IMPORT_BATCH_ROWS rows, in file order, each row number once. */
export const importRows = /* @__PURE__ */ (() =>
  z.array(importRow).check(
    z.minLength(1, "Send at least one row"),
    z.maxLength(IMPORT_BATCH_ROWS, `At most ${IMPORT_BATCH_ROWS} rows per batch`),
    z.refine((rows) => rows.every((r, i) => i === 0 || r.row > (rows[i - 1] as ImportRow).row), {
      message: "Rows must be in file order, each once",
    }),
  ))();

/**
 * The key that makes a row's import happen once: the file's own id for the gift when a column
 * gives it (the same gift in next month's export is the same gift), else the file and the row.
 */
export function importKey(fileHash: string, row: number, externalId?: string | null): string {
  return externalId ? `x:${externalId}` : `f:${fileHash.slice(0, 32)}:${row}`;
}
