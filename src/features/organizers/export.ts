import { CSV_BOM, csvRow, isoWithOffset } from "@core/csv";

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

export interface OrganizerExportFilters {
  q?: string;
  organizationId?: string;
  status?: ("active" | "banned" | "invited" | "expired")[];
  userId?: string;
}

type ExportPage = (
  input: OrganizerExportFilters & { after?: string },
) => Promise<{ rows: OrganizerExportRow[]; total?: number; next?: string }>;

/**
 * Pages through the organizers export (keyset pages of 500 until the server says there is no next
 * page: never truncated) and returns the CSV file's parts; `onProgress` sees rows done / total.
 */
export async function organizerCsv(
  exportPage: ExportPage,
  filters: OrganizerExportFilters,
  onProgress: (done: number, total: number) => void,
): Promise<{ parts: string[]; rows: number }> {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const parts: string[] = [organizerCsvStart()];
  let after: string | undefined;
  let done = 0;
  let total = 0;
  onProgress(0, 0);
  do {
    const page = await exportPage({ ...filters, after });
    if (page.total !== undefined) total = page.total;
    parts.push(organizerCsvLines(page.rows, timeZone));
    done += page.rows.length;
    onProgress(done, total);
    after = page.next;
  } while (after);
  return { parts, rows: done };
}

/** Hands the assembled CSV to the browser as a download. */
export function downloadCsv(parts: string[], name: string) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob(parts, { type: "text/csv;charset=utf-8" }));
  a.download = `${name}-${new Date().toISOString().slice(0, 10)}.csv`;
  a.click();
  URL.revokeObjectURL(a.href);
}
