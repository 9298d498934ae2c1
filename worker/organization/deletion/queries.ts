/** SQL of deleting an organization (decision 047): what ends at once, and the purge's bounded steps. */
import type { Database } from "../../db/databases";
import type { Guard } from "../../lib/guard";

export type Home = "organization" | "directory";

interface PurgeTable {
  table: string;
  /** Which database holds its rows (decision 027); audit_event and the organization row are in both. */
  homes: readonly Home[];
  /** Which rows are the organization's; ?1 is its id. */
  where: string;
}

const ORG = "organization_id = ?1";
const OF_CAMPAIGNS = "campaign_id IN (SELECT id FROM campaign WHERE organization_id = ?1)";
const here: readonly Home[] = ["organization"];
const dir: readonly Home[] = ["directory"];
const both: readonly Home[] = ["organization", "directory"];

/**
 * An organization's tables in purge order: rows naming others first, so no delete cascades or sets a
 * NULL (which fires update triggers). test/organization/deletion.test.ts checks every table is listed.
 */
export const PURGE_TABLES: readonly PurgeTable[] = [
  // A large campaign's own rollups (decision 037) carry the campaign only.
  { table: "campaign_facet", homes: here, where: OF_CAMPAIGNS },
  { table: "campaign_donor_period", homes: here, where: OF_CAMPAIGNS },
  { table: "campaign_rollup_build", homes: here, where: ORG },
  { table: "campaign_rollup_state", homes: here, where: ORG },
  { table: "acknowledgement", homes: here, where: ORG },
  { table: "receipt", homes: here, where: ORG },
  { table: "statement_run", homes: here, where: ORG },
  { table: "plan_event", homes: here, where: ORG },
  { table: "donation", homes: here, where: ORG },
  { table: "recurring_plan", homes: here, where: ORG },
  { table: "donor_tag_assignment", homes: here, where: ORG },
  { table: "donor_note", homes: here, where: ORG },
  { table: "donor_contact", homes: here, where: ORG },
  { table: "donor", homes: here, where: ORG },
  { table: "donor_tag", homes: here, where: ORG },
  { table: "donor_tier", homes: here, where: ORG },
  { table: "import_rejection", homes: here, where: ORG },
  { table: "data_import", homes: here, where: ORG },
  { table: "import_mapping", homes: here, where: ORG },
  { table: "thank_you_template", homes: here, where: ORG },
  { table: "campaign_stats", homes: here, where: ORG },
  { table: "campaign_item", homes: here, where: ORG },
  { table: "campaign_slug", homes: here, where: ORG },
  { table: "campaign", homes: here, where: ORG },
  { table: "org_daily", homes: here, where: ORG },
  { table: "donation_totals", homes: here, where: ORG },
  { table: "donation_daily_totals", homes: here, where: ORG },
  { table: "donation_daily_build", homes: here, where: ORG },
  { table: "donation_daily_state", homes: here, where: ORG },
  { table: "analytics_facet", homes: here, where: ORG },
  { table: "donor_period", homes: here, where: ORG },
  { table: "plan_monthly", homes: here, where: ORG },
  { table: "plan_totals", homes: here, where: ORG },
  { table: "plan_rollup_state", homes: here, where: ORG },
  { table: "org_counter", homes: here, where: ORG },
  { table: "receipt_settings", homes: here, where: ORG },
  { table: "media", homes: dir, where: ORG },
  { table: "organization_badge", homes: dir, where: ORG },
  { table: "invitation", homes: dir, where: ORG },
  { table: "ownership_offer", homes: dir, where: ORG },
  { table: "membership", homes: dir, where: ORG },
  // History last: anything above that a cron job still touched meanwhile wrote its row here.
  { table: "audit_event", homes: both, where: ORG },
  // Bumped by audit rows (a trigger), so after them.
  { table: "analytics_version", homes: here, where: ORG },
  { table: "organization", homes: both, where: "id = ?1" },
];

/** Tables that hold no organization's rows. */
export const KEPT_TABLES: Readonly<Record<string, string>> = {
  user: "people: a member's account is theirs, not the organization's",
  session: "sign-in sessions of people",
  account: "sign-in methods of people",
  verification: "mailed tokens of people",
  rate_limit: "request counters by address",
  mail_outbox: "the dev/test transport's sent mail",
  analytics_bucket: "a fixed lookup of amount ranges (core/analytics.ts)",
  organization_deletion: "the record of deleted organizations, kept on purpose",
  organization_request: "a person's request for an organization: theirs; its organization_id is cleared",
};

/** One purge step of at most `limit` rows: a short write, so a large purge never holds the writer long. */
export const purgeStep = (db: Database, t: PurgeTable, organizationId: string, limit: number) =>
  db
    .prepare(`DELETE FROM ${t.table} WHERE rowid IN (SELECT rowid FROM ${t.table} WHERE ${t.where} LIMIT ?2)`)
    .bind(organizationId, limit);

/** The deletion's first, directory-side batch, each statement guarded on the deletion's audit row. */
export function endAtOnceStatements(db: Database, organizationId: string, guard: Guard) {
  const g = guard.sql(2);
  return [
    db.prepare(`DELETE FROM invitation WHERE organization_id = ?1 AND ${g}`),
    db.prepare(`DELETE FROM ownership_offer WHERE organization_id = ?1 AND ${g}`),
    db.prepare(`UPDATE user SET active_organization_id = NULL WHERE active_organization_id = ?1 AND ${g}`),
    db.prepare(`DELETE FROM membership WHERE organization_id = ?1 AND ${g}`),
  ].map((s) => s.bind(organizationId, ...guard.args));
}

/** The organization is deleted: no page, pick or job sees it again (conditional on the caller owning it). */
export const archiveStatement = (db: Database, organizationId: string, ownerId: string, now: number) =>
  db
    .prepare(
      `UPDATE organization SET status = 'archived', updated_at = ?3 WHERE id = ?1 AND status != 'archived'
         AND EXISTS (SELECT 1 FROM membership WHERE organization_id = ?1 AND user_id = ?2 AND role = 'owner')`,
    )
    .bind(organizationId, ownerId, now);

/** The same in the organization's own database, when it is placed apart (decision 027). */
export const archiveApartStatement = (db: Database, organizationId: string, now: number) =>
  db
    .prepare("UPDATE organization SET status = 'archived', updated_at = ?2 WHERE id = ?1")
    .bind(organizationId, now);

export const recordDeletionStatement = (
  db: Database,
  d: { organizationId: string; name: string; slug: string; requestedBy: string; at: number },
  guard: Guard,
) =>
  db
    .prepare(
      `INSERT INTO organization_deletion (organization_id, name, slug, requested_by, requested_at)
       SELECT ?1, ?2, ?3, ?4, ?5 WHERE ${guard.sql(6)}`,
    )
    .bind(d.organizationId, d.name, d.slug, d.requestedBy, d.at, ...guard.args);

/** Deletions whose purge is not finished, oldest first. */
export async function pendingDeletions(db: Database, limit: number) {
  const { results } = await db
    .prepare(
      "SELECT organization_id AS id FROM organization_deletion WHERE purged_at IS NULL ORDER BY requested_at LIMIT ?",
    )
    .bind(limit)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

/** Rows deleted by a run; with `done`, the purge's end, noted once (a second run's write matches nothing). */
export const notePurgedStatement = (
  db: Database,
  organizationId: string,
  rows: number,
  done: number | null,
) =>
  done === null
    ? db
        .prepare("UPDATE organization_deletion SET purged_rows = purged_rows + ?2 WHERE organization_id = ?1")
        .bind(organizationId, rows)
    : db
        .prepare(
          "UPDATE organization_deletion SET purged_rows = purged_rows + ?2, purged_at = ?3 WHERE organization_id = ?1 AND purged_at IS NULL",
        )
        .bind(organizationId, rows, done);

export const membersToTell = async (db: Database, organizationId: string) =>
  (
    await db
      .prepare(
        "SELECT u.id, u.name, u.email FROM membership m JOIN user u ON u.id = m.user_id WHERE m.organization_id = ? ORDER BY u.name LIMIT 500",
      )
      .bind(organizationId)
      .all<{ id: string; name: string; email: string }>()
  ).results;
