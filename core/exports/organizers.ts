/**
 * The organizers CSV (DESIGN §4, issue 5's column order): every column's header and cell declared
 * together, once. The browser builds the file from the pages of `organizers.exportPage`
 * (src/features/organizers/export.ts); a test builds the very same file from the same procedure
 * (test/organization/organizers-export.test.ts). Pure, so both sides run it (decision 022).
 */
import { CSV_BOM, csvRow, isoWithOffset } from "../csv";

/**
 * What the columns read of a row. The rows of `organizers.exportPage` must fit it: the browser
 * passes the procedure's own output type (inferRouterOutputs), so a renamed or retyped field fails
 * the type check instead of printing an empty column.
 */
export interface OrganizerCsvRow {
  userId: string | null;
  name: string | null;
  email: string;
  organizationName: string;
  role: string;
  status: string;
  invitedBy: string | null;
  joinedAt: number;
  lastActiveAt: number | null;
  campaignsOwned: number;
}

/** A column: its header and its cell, side by side; instants print in `timeZone` with their offset. */
interface Column {
  header: string;
  cell: (row: OrganizerCsvRow, timeZone: string) => unknown;
}

export const organizerColumns: readonly Column[] = [
  { header: "user_id", cell: (r) => r.userId },
  { header: "name", cell: (r) => r.name },
  { header: "email", cell: (r) => r.email },
  { header: "organization", cell: (r) => r.organizationName },
  { header: "role", cell: (r) => r.role },
  { header: "status", cell: (r) => r.status },
  { header: "invited_by", cell: (r) => r.invitedBy },
  { header: "joined", cell: (r, tz) => isoWithOffset(r.joinedAt, tz) },
  { header: "last_active", cell: (r, tz) => isoWithOffset(r.lastActiveAt, tz) },
  { header: "campaigns_owned", cell: (r) => r.campaignsOwned },
];

/** The file's start: the byte-order mark and the header line. */
export const organizerCsvStart = () => CSV_BOM + csvRow(organizerColumns.map((c) => c.header));

/** The lines of a page of rows (each ends with CRLF). */
export function organizerCsvLines(rows: readonly OrganizerCsvRow[], timeZone: string): string {
  let out = "";
  for (const r of rows) out += csvRow(organizerColumns.map((c) => c.cell(r, timeZone)));
  return out;
}
