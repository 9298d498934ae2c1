/** The organizers CSV (DESIGN §4): header and cell once, so browser and tests agree (decision 022). */
import { CSV_BOM, csvRow, isoWithOffset } from "../csv";

/** The browser passes the procedure's output type: a renamed field fails tsc, not prints a blank column. */
interface OrganizerCsvRow {
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

export const organizerCsvStart = () => CSV_BOM + csvRow(organizerColumns.map((c) => c.header));

export function organizerCsvLines(rows: readonly OrganizerCsvRow[], timeZone: string): string {
  let out = "";
  for (const r of rows) out += csvRow(organizerColumns.map((c) => c.cell(r, timeZone)));
  return out;
}
