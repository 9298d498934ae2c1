import { CSV_BOM, csvRow, isoWithOffset } from "../../../worker/lib/csv";

export interface OrganizerExportRow {
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

/** DESIGN §4 / issue 5 column order of the organizers export. */
export const ORGANIZER_CSV_HEADER = [
  "user_id",
  "name",
  "email",
  "organization",
  "role",
  "status",
  "invited_by",
  "joined",
  "last_active",
  "campaigns_owned",
];

export function organizerCsvLines(rows: OrganizerExportRow[], timeZone: string): string {
  return rows
    .map((r) =>
      csvRow([
        r.userId,
        r.name,
        r.email,
        r.organizationName,
        r.role,
        r.status,
        r.invitedBy,
        isoWithOffset(r.joinedAt, timeZone),
        isoWithOffset(r.lastActiveAt, timeZone),
        r.campaignsOwned,
      ]),
    )
    .join("");
}

export const organizerCsvStart = () => CSV_BOM + csvRow(ORGANIZER_CSV_HEADER);
