/**
 * The SQL of the organization's archive (service.ts streams it): one file per table, read in keyset
 * pages, each the table's own columns (ownColumns) minus `OMITTED`. Keysets follow an index that leads with
 * organization_id, so a page is one seek; tables without one are paged by rowid.
 */
import { getTableColumns, getTableName, type Table } from "drizzle-orm";
import type { Database } from "../../db/databases";
import type { Row } from "../../db/rows";
import * as schema from "../../db/schema";

export type Source = "directory" | "organization";

export interface ArchiveTable {
  /** The file's name in the archive. */
  file: string;
  /** One line for README.txt and manifest.csv. */
  about: string;
  /** The table its rows come from (`t` in the SQL). */
  table: string;
  source: Source;
  /** The header row: the database's column names. */
  columns: readonly string[];
  /** SQL for a column other than `t.<column>` (the member's name and e-mail come from user `u`). */
  select?: Readonly<Record<string, string>>;
  /** The joins after `FROM <table> t`. */
  join?: string;
  /** Which rows are the organization's; ?1 is its id. */
  where: string;
  /** Unique together, in the order of an index that leads with organization_id (or rowid). */
  keyset: readonly string[];
}

/** Column names of `T` as raw SQL returns them: a misspelt or dropped column fails the typecheck. */
const columnsOf =
  <T extends Table>() =>
  <const C extends readonly (keyof Row<T> & string)[]>(...columns: C) =>
    columns;

const ORG = "t.organization_id = ?1";

/**
 * Columns left out of every file, and why. test/organization/portability.test.ts checks that each
 * table's columns are exactly its schema's minus these, so a new column is a decision, not a leak.
 */
export const OMITTED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "*": { organization_id: "the same in every row: the id in organization.csv" },
  invitation: { secret_hash: "the hash of the secret in the invitation link" },
  donation: { change_token: "a random token that makes concurrent writes conditional (decision 020)" },
  donor: { sketch: "a random number for the dashboard's distinct-donor estimates (decision 032)" },
  data_import: { batch_token: "a random token that makes an import's batches land once (decision 028)" },
  recurring_plan: { change_token: "a random token that makes concurrent writes conditional (decision 020)" },
  media: { bytes: "the image itself: a file of its own under media/" },
};

/**
 * A table's columns under the database's names, in the schema's order, minus OMITTED: the file
 * follows the schema, and the portability test refuses a secret-looking column not left out.
 */
function ownColumns(table: Table): readonly string[] {
  const left = { ...OMITTED["*"], ...OMITTED[getTableName(table)] };
  return Object.values(getTableColumns(table))
    .map((c) => c.name)
    .filter((name) => !(name in left));
}

/** The archive's tables, in the order the files appear (parents before the rows that name them). */
export const ARCHIVE_TABLES: readonly ArchiveTable[] = [
  {
    file: "organization.csv",
    about: "The organization's profile",
    table: "organization",
    source: "directory",
    columns: ownColumns(schema.organization),
    where: "t.id = ?1",
    keyset: ["t.id"],
  },
  {
    file: "members.csv",
    about: "Members: the membership (id, role, joined at created_at) with the user's name and e-mail",
    table: "membership",
    source: "directory",
    // The user's own columns beyond name and e-mail (platform role, ban, sign-in data) are the
    // platform's, not the organization's.
    columns: [
      ...columnsOf<typeof schema.membership>()("id", "user_id"),
      ...columnsOf<typeof schema.user>()("name", "email"),
      ...columnsOf<typeof schema.membership>()("role", "created_at", "updated_at"),
    ],
    select: { name: "u.name", email: "u.email" },
    join: "JOIN user u ON u.id = t.user_id",
    where: ORG,
    keyset: ["t.user_id"],
  },
  {
    file: "invitations.csv",
    about: "Invitations, open and closed (without the link's secret)",
    table: "invitation",
    source: "directory",
    columns: ownColumns(schema.invitation),
    where: ORG,
    keyset: ["t.created_at", "t.rowid"],
  },
  {
    file: "organization_badges.csv",
    about: "Badges granted to the organization",
    table: "organization_badge",
    source: "directory",
    columns: ownColumns(schema.organizationBadge),
    where: ORG,
    keyset: ["t.badge", "t.rowid"],
  },
  {
    file: "campaigns.csv",
    about: "Campaigns (money in minor units of the campaign's currency)",
    table: "campaign",
    source: "organization",
    columns: ownColumns(schema.campaign),
    where: ORG,
    keyset: ["t.slug"],
  },
  {
    file: "campaign_slugs.csv",
    about: "Earlier slugs of campaigns, which still lead to them",
    table: "campaign_slug",
    source: "organization",
    columns: ownColumns(schema.campaignSlug),
    where: ORG,
    keyset: ["t.slug"],
  },
  {
    file: "campaign_items.csv",
    about: "Campaign items (fundable impact items)",
    table: "campaign_item",
    source: "organization",
    columns: ownColumns(schema.campaignItem),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "donor_tiers.csv",
    about: "Donor tiers",
    table: "donor_tier",
    source: "organization",
    columns: ownColumns(schema.donorTier),
    where: ORG,
    keyset: ["t.min_minor", "t.rowid"],
  },
  {
    file: "donors.csv",
    about:
      "Donors, with their stored totals (lifetime_minor and largest_gift_minor in the organization's currency)",
    table: "donor",
    source: "organization",
    columns: ownColumns(schema.donor),
    where: ORG,
    keyset: ["t.created_at", "t.rowid"],
  },
  {
    file: "donor_tags.csv",
    about: "Donor tags",
    table: "donor_tag",
    source: "organization",
    columns: ownColumns(schema.donorTag),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "donor_tag_assignments.csv",
    about: "Which donor carries which tag",
    table: "donor_tag_assignment",
    source: "organization",
    columns: ownColumns(schema.donorTagAssignment),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "donor_contacts.csv",
    about: "Donors' other e-mail addresses and phone numbers, kept by merges",
    table: "donor_contact",
    source: "organization",
    columns: ownColumns(schema.donorContact),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "donor_notes.csv",
    about: "Notes on donors",
    table: "donor_note",
    source: "organization",
    columns: ownColumns(schema.donorNote),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "donations.csv",
    about: "Donations, trashed ones included (money in minor units of the donation's currency)",
    table: "donation",
    source: "organization",
    columns: ownColumns(schema.donation),
    where: ORG,
    keyset: ["t.number"],
  },
  {
    file: "recurring_plans.csv",
    about:
      "Recurring plans (money in minor units of the plan's currency; donations name their plan in donations.csv)",
    table: "recurring_plan",
    source: "organization",
    columns: ownColumns(schema.recurringPlan),
    where: ORG,
    keyset: ["t.created_at", "t.rowid"],
  },
  {
    file: "recurring_plan_events.csv",
    about:
      "Each plan's history: created, status and amount changes (yearly amounts counted in revenue before and after)",
    table: "plan_event",
    source: "organization",
    columns: ownColumns(schema.planEvent),
    where: ORG,
    keyset: ["t.plan_id", "t.at", "t.rowid"],
  },
  {
    file: "receipt_settings.csv",
    about:
      "What the organization's tax receipts say beyond its profile (signatory, tax statement, number prefix, language) and whether they go out on their own",
    table: "receipt_settings",
    source: "organization",
    columns: ownColumns(schema.receiptSettings),
    where: ORG,
    keyset: ["t.organization_id"],
  },
  {
    file: "thank_you_templates.csv",
    about:
      "Thank-you messages: the organization's own (no campaign_id) and each campaign's, with {{merge fields}}",
    table: "thank_you_template",
    source: "organization",
    columns: ownColumns(schema.thankYouTemplate),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "receipts.csv",
    about:
      "Tax receipts: number (print it with the prefix in snapshot.settings), original or correction (replaces_id), issued or void, the deductible amount in minor units, what each said (snapshot, JSON), and its e-mail (delivery state, sent_at, sent_to, send_count)",
    table: "receipt",
    source: "organization",
    columns: ownColumns(schema.receipt),
    where: ORG,
    keyset: ["t.number"],
  },
  {
    file: "acknowledgements.csv",
    about:
      "Every thank-you, receipt and year-end statement e-mailed to a donor: kind, to whom, when, and who sent it (empty: sent automatically)",
    table: "acknowledgement",
    source: "organization",
    columns: ownColumns(schema.acknowledgement),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "imports.csv",
    about: "CSV imports: the file (name, SHA-256), its columns' mapping, options, progress and what it did",
    table: "data_import",
    source: "organization",
    columns: ownColumns(schema.dataImport),
    where: ORG,
    keyset: ["t.created_at", "t.rowid"],
  },
  {
    file: "import_rejected_rows.csv",
    about: "The rows imports refused, with the reason and the row's own cells (JSON)",
    table: "import_rejection",
    source: "organization",
    columns: ownColumns(schema.importRejection),
    where: ORG,
    keyset: ["t.import_id", "t.row_number"],
  },
  {
    file: "import_mappings.csv",
    about: "Saved column mappings of imports (file column → field, as JSON)",
    table: "import_mapping",
    source: "organization",
    columns: ownColumns(schema.importMappingPreset),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "media.csv",
    about: "Uploaded images (logos, covers, item images); each one's bytes are in media/",
    table: "media",
    source: "organization",
    columns: ownColumns(schema.media),
    where: ORG,
    keyset: ["t.created_at", "t.rowid"],
  },
  {
    file: "audit_events.csv",
    about: "The organization's history: who changed what, when (before and after as JSON)",
    table: "audit_event",
    source: "organization",
    columns: ownColumns(schema.auditEvent),
    where: ORG,
    keyset: ["t.entity_type", "t.entity_id", "t.at", "t.rowid"],
  },
];

/** Whether a column holds an instant (epoch ms in the database): `at` and every `…_at`. */
export const isInstantColumn = (column: string) => column === "at" || column.endsWith("_at");

/** The page after `after` (the last page's keyset values, or null): rows of keyset values, then columns. */
export function tablePage(
  db: Database,
  table: ArchiveTable,
  organizationId: string,
  after: readonly unknown[] | null,
  pageSize: number,
): Promise<unknown[][]> {
  const k = table.keyset;
  const cells = table.columns.map((c) => table.select?.[c] ?? `t.${c}`);
  const bound = after ? ` AND (${k.join(", ")}) > (${k.map((_, i) => `?${i + 2}`).join(", ")})` : "";
  const sql = `SELECT ${[...k, ...cells].join(", ")} FROM ${table.table} t ${table.join ?? ""}
    WHERE ${table.where}${bound} ORDER BY ${k.join(", ")} LIMIT ${Math.max(1, Math.floor(pageSize))}`;
  return db
    .prepare(sql)
    .bind(organizationId, ...(after ?? []))
    .raw();
}

/** One uploaded image's bytes, if it is still the organization's. */
export function mediaBytes(db: Database, organizationId: string, id: string) {
  return db
    .prepare("SELECT bytes FROM media WHERE id = ?1 AND organization_id = ?2")
    .bind(id, organizationId)
    .first<{ bytes: ArrayBuffer | number[] }>();
}
