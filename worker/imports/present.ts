/** An import record as the API gives it (docs/architecture.md: present). */
import { FIRST_DATA_ROW, firstDataRow } from "@core/import/batch";
import type { ImportKind, ImportMapping, ImportOptions } from "@core/import/fields";
import type { ImportRecord } from "./queries";

export type ImportStatus = "running" | "completed" | "rolling_back" | "rolled_back";

/**
 * How far `next_row` stands past the file's own row: it counts as if the file had a header, so a
 * file without one (data from row 1) keeps the column's CHECK (>= 2) and rowsDone = next_row - 2.
 */
export const storedRowShift = (o: { firstRowIsData?: boolean }) => FIRST_DATA_ROW - firstDataRow(o);

export function presentImport(r: ImportRecord) {
  const options = JSON.parse(r.options) as ImportOptions;
  return {
    id: r.id,
    kind: r.kind as ImportKind,
    fileName: r.file_name,
    fileHash: r.file_hash,
    fileSize: r.file_size,
    totalRows: r.total_rows,
    headers: JSON.parse(r.headers) as string[],
    mapping: JSON.parse(r.mapping) as ImportMapping,
    options,
    status: r.status as ImportStatus,
    nextRow: r.next_row - storedRowShift(options),
    /** Rows decided so far (imported, skipped or refused). */
    rowsDone: r.next_row - FIRST_DATA_ROW,
    counts: {
      donorsCreated: r.donors_created,
      donorsUpdated: r.donors_updated,
      donorsMatched: r.donors_matched,
      giftsCreated: r.gifts_created,
      campaignsCreated: r.campaigns_created,
      rowsSkipped: r.rows_skipped,
      rowsInvalid: r.rows_invalid,
    },
    createdBy: r.created_by,
    createdAt: r.created_at,
    completedAt: r.completed_at,
    rolledBackAt: r.rolled_back_at,
  };
}
export type PresentedImport = ReturnType<typeof presentImport>;
