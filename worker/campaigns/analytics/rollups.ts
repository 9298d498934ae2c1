/**
 * A large campaign's own analytics rollups (decision 037): built here, kept by every change's batch
 * (worker/donations/rollups.ts), read by campaign analytics (queries.ts `analyticsRows`).
 */
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../../db/databases";
import { campaignRollupSql, spansTable } from "../../donations/daily-totals-sql";
import { withOrganizationSpans } from "../../donations/rollups";

/**
 * The campaign's rollups recomputed from its gifts in one batch (one transaction: no concurrent
 * change falls between the read and the write), in `timeZone`: the state row goes, the rows are
 * rebuilt, and the state row comes back only if every counted gift landed in a span, else its NOT
 * NULL fails the batch (a gift dated outside the spans arrived meanwhile) and it tries again.
 * Returns whether the campaign's rollups are built.
 */
export async function buildCampaignRollups(
  db: Database,
  organizationId: string,
  campaignId: string,
  timeZone: string,
  now = Date.now(),
) {
  return withOrganizationSpans(db, organizationId, timeZone, (spans) => {
    // ?1 organization, ?2 spans, ?3 campaign, ?4 zone, ?5 now; each statement binds up to the last it names.
    const values = [organizationId, JSON.stringify(spans), campaignId, timeZone, now];
    const bind = (sql: string, last = 3) => db.prepare(sql).bind(...values.slice(0, last));
    return db.batch([
      bind("DELETE FROM campaign_rollup_state WHERE campaign_id = ?3"),
      bind("DELETE FROM campaign_facet WHERE campaign_id = ?3"),
      bind("DELETE FROM campaign_donor_period WHERE campaign_id = ?3"),
      ...campaignRollupSql({
        spans: spansTable(2),
        // The campaign's gifts by its own index, each on its span.
        from: "donation d INDEXED BY donation_campaign_idx CROSS JOIN s ON d.donated_at >= s.b AND d.donated_at < s.e",
        where: "d.campaign_id = ?3 AND d.organization_id = ?1",
        sign: "1",
      }).map((sql) => bind(sql)),
      bind(
        `INSERT INTO campaign_rollup_state (campaign_id, organization_id, time_zone, built_at)
         SELECT ?3, ?1, CASE WHEN (SELECT COALESCE(SUM(gift_count), 0) FROM campaign_facet WHERE campaign_id = ?3 AND facet = 'net' AND grain = 'd')
                                = (SELECT COUNT(*) FROM donation d WHERE d.campaign_id = ?3 AND ${COUNTED_SQL("d")}) THEN ?4 END, ?5`,
        5,
      ),
    ]);
  });
}

/**
 * The cron's part (worker/scheduled.ts): a few campaigns with at least `from` counted gifts
 * (app.config.ts `donations.campaignRollupsFrom`, 10 000: below it reading the gifts answers within
 * a few milliseconds, and an organization's many small campaigns cost no writes) whose rollups are
 * missing or built in a zone their organization has left, built one after the other. `here` says
 * whether an organization's data lives in `db` (decision 027).
 */
export async function buildLargeCampaigns(
  db: Database,
  here: (organizationId: string) => boolean,
  from: number,
  limit = 2,
) {
  const { results } = await db
    .prepare(
      `SELECT c.id, c.organization_id AS org, o.time_zone AS tz
         FROM campaign_stats cs JOIN campaign c ON c.id = cs.campaign_id JOIN organization o ON o.id = c.organization_id
         LEFT JOIN campaign_rollup_state st ON st.campaign_id = c.id
        WHERE cs.donation_count >= ?1 AND (st.time_zone IS NULL OR st.time_zone != o.time_zone)
        ORDER BY random() LIMIT ?2`,
    )
    .bind(from, limit)
    .all<{ id: string; org: string; tz: string }>();
  const built: string[] = [];
  for (const c of results)
    if (here(c.org) && (await buildCampaignRollups(db, c.org, c.id, c.tz))) built.push(c.id);
  return built;
}
