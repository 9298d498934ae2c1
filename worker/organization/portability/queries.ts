/**
 * The SQL of the organization's archive (issue 22, data portability; service.ts streams it): one
 * file per table, each read in keyset pages so a page is the only part of a table in memory.
 *
 * Every file is the table's own columns under the database's names, minus those in `OMITTED`
 * (secrets, and what would say nothing: the organization id every row carries). Which database a
 * table is read from is worker/db/databases.ts's rule: memberships, users, invitations, badges and
 * the organization itself from the directory, the rest from the organization's database.
 *
 * Keysets follow an index that leads with organization_id where the schema has one, so each page
 * is one index seek; campaign items, tags, tag assignments and notes have none and are paged by
 * rowid (every page goes on from where the last one ended, so the whole export reads the table
 * once).
 */
import type { Table } from "drizzle-orm";
import type { Database } from "../../db/databases";
import type { Row } from "../../db/rows";
import type * as schema from "../../db/schema";

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

/** The archive's tables, in the order the files appear (parents before the rows that name them). */
export const ARCHIVE_TABLES: readonly ArchiveTable[] = [
  {
    file: "organization.csv",
    about: "The organization's profile",
    table: "organization",
    source: "directory",
    columns: columnsOf<typeof schema.organization>()(
      "id",
      "name",
      "slug",
      "legal_name",
      "type",
      "registration_id",
      "tax_id",
      "country",
      "address_line1",
      "address_line2",
      "city",
      "region",
      "postal_code",
      "contact_email",
      "contact_phone",
      "website",
      "mission",
      "description",
      "logo_url",
      "default_currency",
      "time_zone",
      "fiscal_year_start_month",
      "status",
      "created_at",
      "updated_at",
    ),
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
    columns: columnsOf<typeof schema.invitation>()(
      "id",
      "email",
      "role",
      "invited_by",
      "expires_at",
      "accepted_at",
      "revoked_at",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.created_at", "t.rowid"],
  },
  {
    file: "organization_badges.csv",
    about: "Badges granted to the organization",
    table: "organization_badge",
    source: "directory",
    columns: columnsOf<typeof schema.organizationBadge>()(
      "id",
      "badge",
      "granted_by",
      "reason",
      "expires_at",
      "revoked_at",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.badge", "t.rowid"],
  },
  {
    file: "campaigns.csv",
    about: "Campaigns (money in minor units of the campaign's currency)",
    table: "campaign",
    source: "organization",
    columns: columnsOf<typeof schema.campaign>()(
      "id",
      "title",
      "slug",
      "short_description",
      "description",
      "cover_url",
      "currency",
      "goal_type",
      "goal_amount_minor",
      "goal_count",
      "start_at",
      "end_at",
      "accept_after_end",
      "complete_on_goal",
      "suggested_amounts",
      "min_amount_minor",
      "max_amount_minor",
      "allow_recurring",
      "visibility",
      "status",
      "created_by",
      "published_at",
      "archived_at",
      "import_id",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.slug"],
  },
  {
    file: "campaign_slugs.csv",
    about: "Earlier slugs of campaigns, which still lead to them",
    table: "campaign_slug",
    source: "organization",
    columns: columnsOf<typeof schema.campaignSlug>()("slug", "campaign_id", "created_at"),
    where: ORG,
    keyset: ["t.slug"],
  },
  {
    file: "campaign_items.csv",
    about: "Campaign items (fundable impact items)",
    table: "campaign_item",
    source: "organization",
    columns: columnsOf<typeof schema.campaignItem>()(
      "id",
      "campaign_id",
      "title",
      "description",
      "image_url",
      "unit_amount_minor",
      "quantity_needed",
      "allow_overfunding",
      "sort_order",
      "active",
      "archived_at",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "donor_tiers.csv",
    about: "Donor tiers",
    table: "donor_tier",
    source: "organization",
    columns: columnsOf<typeof schema.donorTier>()(
      "id",
      "name",
      "basis",
      "min_minor",
      "max_minor",
      "color",
      "sort_order",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.min_minor", "t.rowid"],
  },
  {
    file: "donors.csv",
    about:
      "Donors, with their stored totals (lifetime_minor and largest_gift_minor in the organization's currency)",
    table: "donor",
    source: "organization",
    columns: columnsOf<typeof schema.donor>()(
      "id",
      "type",
      "first_name",
      "last_name",
      "company",
      "email",
      "phone",
      "address_line1",
      "address_line2",
      "city",
      "region",
      "postal_code",
      "country",
      "email_opt_in",
      "phone_opt_in",
      "mail_opt_in",
      "external_id",
      "anonymized_at",
      "merged_into_id",
      "tier_id",
      "previous_tier_id",
      "tier_locked",
      "lifetime_minor",
      "donation_count",
      "largest_gift_minor",
      "first_gift_at",
      "last_gift_at",
      "created_by",
      "import_id",
      "import_key",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.created_at", "t.rowid"],
  },
  {
    file: "donor_tags.csv",
    about: "Donor tags",
    table: "donor_tag",
    source: "organization",
    columns: columnsOf<typeof schema.donorTag>()("id", "name", "color", "created_at", "updated_at"),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "donor_tag_assignments.csv",
    about: "Which donor carries which tag",
    table: "donor_tag_assignment",
    source: "organization",
    columns: columnsOf<typeof schema.donorTagAssignment>()("donor_id", "tag_id"),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "donor_notes.csv",
    about: "Notes on donors",
    table: "donor_note",
    source: "organization",
    columns: columnsOf<typeof schema.donorNote>()(
      "id",
      "donor_id",
      "author_id",
      "body",
      "visibility",
      "pinned",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "donations.csv",
    about: "Donations, trashed ones included (money in minor units of the gift's currency)",
    table: "donation",
    source: "organization",
    columns: columnsOf<typeof schema.donation>()(
      "id",
      "number",
      "donor_id",
      "campaign_id",
      "campaign_item_id",
      "item_quantity",
      "amount_minor",
      "fee_covered_minor",
      "processing_fee_minor",
      "platform_fee_minor",
      "refunded_minor",
      "currency",
      "status",
      "frequency",
      "payment_method",
      "gateway",
      "gateway_transaction_id",
      "source",
      "mode",
      "anonymous",
      "message",
      "tribute_type",
      "tribute_name",
      "internal_note",
      "donated_at",
      "trashed_at",
      "created_by",
      "import_id",
      "import_key",
      "plan_id",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.number"],
  },
  {
    file: "recurring_plans.csv",
    about:
      "Recurring plans (money in minor units of the plan's currency; gifts name their plan in donations.csv)",
    table: "recurring_plan",
    source: "organization",
    columns: columnsOf<typeof schema.recurringPlan>()(
      "id",
      "donor_id",
      "campaign_id",
      "amount_minor",
      "currency",
      "interval",
      "interval_day",
      "status",
      "source",
      "gateway",
      "gateway_subscription_id",
      "payment_method",
      "started_at",
      "next_expected_at",
      "ended_at",
      "status_changed_at",
      "gift_count",
      "given_minor",
      "last_gift_at",
      "missed_count",
      "created_by",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.created_at", "t.rowid"],
  },
  {
    file: "recurring_plan_events.csv",
    about:
      "Each plan's history: created, status and amount changes (yearly amounts counted in revenue before and after)",
    table: "plan_event",
    source: "organization",
    columns: columnsOf<typeof schema.planEvent>()(
      "id",
      "plan_id",
      "at",
      "kind",
      "from_status",
      "to_status",
      "currency",
      "annual_before",
      "annual_after",
      "reason",
      "actor_id",
    ),
    where: ORG,
    keyset: ["t.plan_id", "t.at", "t.rowid"],
  },
  {
    file: "receipt_settings.csv",
    about:
      "What the organization's tax receipts say beyond its profile (signatory, tax statement, number prefix, language) and whether they go out on their own",
    table: "receipt_settings",
    source: "organization",
    columns: columnsOf<typeof schema.receiptSettings>()(
      "signatory_name",
      "signatory_title",
      "tax_statement",
      "number_prefix",
      "language",
      "auto_send",
      "updated_by",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.organization_id"],
  },
  {
    file: "thank_you_templates.csv",
    about:
      "Thank-you messages: the organization's own (no campaign_id) and each campaign's, with {{merge fields}}",
    table: "thank_you_template",
    source: "organization",
    columns: columnsOf<typeof schema.thankYouTemplate>()(
      "id",
      "campaign_id",
      "subject",
      "body",
      "updated_by",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "receipts.csv",
    about:
      "Tax receipts: number (print it with the prefix in snapshot.settings), original or correction (replaces_id), issued or void, the deductible amount in minor units, what each said (snapshot, JSON), and its e-mail (delivery state, sent_at, sent_to, send_count)",
    table: "receipt",
    source: "organization",
    columns: columnsOf<typeof schema.receipt>()(
      "id",
      "donation_id",
      "donor_id",
      "number",
      "kind",
      "replaces_id",
      "status",
      "currency",
      "amount_minor",
      "deductible_minor",
      "donated_at",
      "issued_at",
      "voided_at",
      "void_reason",
      "snapshot",
      "delivery",
      "delivery_at",
      "delivery_error",
      "sent_at",
      "sent_to",
      "send_count",
    ),
    where: ORG,
    keyset: ["t.number"],
  },
  {
    file: "acknowledgements.csv",
    about:
      "Every thank-you, receipt and year-end statement e-mailed to a donor: kind, to whom, when, and who sent it (empty: sent automatically)",
    table: "acknowledgement",
    source: "organization",
    columns: columnsOf<typeof schema.acknowledgement>()(
      "id",
      "donor_id",
      "donation_id",
      "receipt_id",
      "kind",
      "period",
      "sent_to",
      "sent_by",
      "sent_at",
    ),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "imports.csv",
    about: "CSV imports: the file (name, SHA-256), its columns' mapping, options, progress and what it did",
    table: "data_import",
    source: "organization",
    columns: columnsOf<typeof schema.dataImport>()(
      "id",
      "kind",
      "file_name",
      "file_hash",
      "file_size",
      "total_rows",
      "headers",
      "mapping",
      "options",
      "status",
      "next_row",
      "donors_created",
      "donors_updated",
      "donors_matched",
      "gifts_created",
      "campaigns_created",
      "rows_skipped",
      "rows_invalid",
      "created_by",
      "completed_at",
      "rolled_back_at",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.created_at", "t.rowid"],
  },
  {
    file: "import_rejected_rows.csv",
    about: "The rows imports refused, with the reason and the row's own cells (JSON)",
    table: "import_rejection",
    source: "organization",
    columns: columnsOf<typeof schema.importRejection>()("import_id", "row_number", "reason", "cells"),
    where: ORG,
    keyset: ["t.import_id", "t.row_number"],
  },
  {
    file: "import_mappings.csv",
    about: "Saved column mappings of imports (file column → field, as JSON)",
    table: "import_mapping",
    source: "organization",
    columns: columnsOf<typeof schema.importMappingPreset>()(
      "id",
      "kind",
      "name",
      "fields",
      "options",
      "created_by",
      "created_at",
      "updated_at",
    ),
    where: ORG,
    keyset: ["t.rowid"],
  },
  {
    file: "media.csv",
    about: "Uploaded images (logos, covers, item images); each one's bytes are in media/",
    table: "media",
    source: "organization",
    columns: columnsOf<typeof schema.media>()(
      "id",
      "content_type",
      "byte_size",
      "sha256",
      "created_by",
      "created_at",
    ),
    where: ORG,
    keyset: ["t.created_at", "t.rowid"],
  },
  {
    file: "audit_events.csv",
    about: "The organization's history: who changed what, when (before and after as JSON)",
    table: "audit_event",
    source: "organization",
    columns: columnsOf<typeof schema.auditEvent>()(
      "id",
      "actor_id",
      "impersonator_id",
      "action",
      "entity_type",
      "entity_id",
      "before",
      "after",
      "reason",
      "ip",
      "at",
    ),
    where: ORG,
    keyset: ["t.entity_type", "t.entity_id", "t.at", "t.rowid"],
  },
];

/** Whether a column holds an instant (epoch ms in the database): `at` and every `…_at`. */
export const isInstantColumn = (column: string) => column === "at" || column.endsWith("_at");

/**
 * One page of `table` after `after` (the previous page's last keyset values; null for the first
 * page): rows as arrays, the keyset's values first, then one value per column.
 */
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
