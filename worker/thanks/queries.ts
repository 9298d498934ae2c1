// Thank-you templates: the organization's (campaign_id NULL) and one per campaign, each unique
// by drizzle/0020's partial indexes.
import type { Database } from "../db/databases";

interface TemplateRow {
  campaign_id: string | null;
  campaign_title: string | null;
  subject: string;
  body: string;
  updated_at: number;
}

/** Every template of the organization, the default first, then the campaigns' by title. */
export function templateRows(db: Database, orgId: string) {
  return db
    .prepare(
      `SELECT t.campaign_id, c.title AS campaign_title, t.subject, t.body, t.updated_at
       FROM thank_you_template t LEFT JOIN campaign c ON c.id = t.campaign_id
       WHERE t.organization_id = ?1
       ORDER BY t.campaign_id IS NOT NULL, c.title COLLATE NOCASE, t.campaign_id`,
    )
    .bind(orgId)
    .all<TemplateRow>()
    .then((r) => r.results);
}

/** One template: the organization's (campaignId null) or a campaign's; null when never saved. */
export function templateRow(db: Database, orgId: string, campaignId: string | null) {
  return db
    .prepare(
      `SELECT subject, body, updated_at FROM thank_you_template
       WHERE organization_id = ?1 AND campaign_id IS ?2`,
    )
    .bind(orgId, campaignId)
    .first<Pick<TemplateRow, "subject" | "body" | "updated_at">>();
}

/** What a campaign's gift is thanked with: its campaign's template, else the organization's. */
export function effectiveTemplateRow(db: Database, orgId: string, campaignId: string | null) {
  return db
    .prepare(
      `SELECT subject, body FROM thank_you_template
       WHERE organization_id = ?1 AND (campaign_id IS NULL OR campaign_id = ?2)
       ORDER BY campaign_id IS NULL LIMIT 1`,
    )
    .bind(orgId, campaignId)
    .first<{ subject: string; body: string }>();
}

export function campaignTitle(db: Database, orgId: string, campaignId: string) {
  return db
    .prepare("SELECT title FROM campaign WHERE id = ?1 AND organization_id = ?2")
    .bind(campaignId, orgId)
    .first<{ title: string }>();
}

/** Each partial index is its own conflict target. */
export function upsertTemplate(
  db: Database,
  t: {
    id: string;
    orgId: string;
    campaignId: string | null;
    subject: string;
    body: string;
    by: string;
    at: number;
  },
) {
  const target =
    t.campaignId === null
      ? "(organization_id) WHERE campaign_id IS NULL"
      : "(organization_id, campaign_id) WHERE campaign_id IS NOT NULL";
  return db
    .prepare(
      `INSERT INTO thank_you_template (id, organization_id, campaign_id, subject, body, updated_by, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
       ON CONFLICT ${target} DO UPDATE SET subject = ?4, body = ?5, updated_by = ?6, updated_at = ?7`,
    )
    .bind(t.id, t.orgId, t.campaignId, t.subject, t.body, t.by, t.at);
}

export function deleteTemplate(db: Database, orgId: string, campaignId: string) {
  return db
    .prepare("DELETE FROM thank_you_template WHERE organization_id = ?1 AND campaign_id = ?2")
    .bind(orgId, campaignId);
}
