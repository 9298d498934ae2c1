/**
 * A large campaign's own analytics rollups (decision 037): built here, kept by every change's batch
 * (worker/donations/rollups.ts), read by campaign analytics (queries.ts `analyticsRows`).
 */
import type { Database } from "../../db/databases";
import { campaignRebuildSql } from "../../donations/daily-totals-sql";
import { type BuildOptions, buildInStretches } from "../../donations/rollup-builds";

/**
 * Builds the campaign's rollups in `timeZone` from its gifts, in stretches of local days (decisions
 * 038, 043; worker/donations/rollup-builds.ts): a campaign_rollup_build row says how far it has
 * come, each batch counts a stretch of about REBUILD_BATCH_GIFTS of the campaign's gifts, and the
 * last writes campaign_rollup_state only if every counted gift is counted. Changes made meanwhile
 * keep the days already built. Resumes a build under way (`restart` starts over); stops at
 * `deadline` or after `maxBatches` stretches. Returns whether the campaign's rollups are built.
 */
export const buildCampaignRollupsInStretches = (
  db: Database,
  organizationId: string,
  campaignId: string,
  timeZone: string,
  opts: BuildOptions = {},
) =>
  buildInStretches(
    db,
    {
      organizationId,
      owner: { column: "campaign_id", id: campaignId },
      statements: (last) => campaignRebuildSql({ last }),
    },
    timeZone,
    opts,
  );

/** The campaign's rollups counted again from its gifts, to the end (tests). Returns whether built. */
export const buildCampaignRollups = (
  db: Database,
  organizationId: string,
  campaignId: string,
  timeZone: string,
) => buildCampaignRollupsInStretches(db, organizationId, campaignId, timeZone, { restart: true });

/**
 * The cron's part (worker/scheduled.ts): campaigns with at least `from` counted gifts
 * (app.config.ts `donations.campaignRollupsFrom`, 10 000: below it reading the gifts answers within
 * a few milliseconds, and an organization's many small campaigns cost no writes) whose rollups are
 * missing or built in a zone their organization has left, builds under way first, one after the
 * other until `deadline` (ms). `here` says whether an organization's data lives in `db`
 * (decision 027). Returns the campaigns built to the end.
 */
export async function buildLargeCampaigns(
  db: Database,
  here: (organizationId: string) => boolean,
  from: number,
  opts: { deadline?: number; limit?: number } = {},
) {
  const { results } = await db
    .prepare(
      `SELECT c.id, c.organization_id AS org, o.time_zone AS tz
         FROM campaign_stats cs JOIN campaign c ON c.id = cs.campaign_id JOIN organization o ON o.id = c.organization_id
         LEFT JOIN campaign_rollup_state st ON st.campaign_id = c.id
         LEFT JOIN campaign_rollup_build b ON b.campaign_id = c.id AND b.time_zone = o.time_zone
        WHERE cs.donation_count >= ?1 AND (st.time_zone IS NULL OR st.time_zone != o.time_zone)
        ORDER BY b.campaign_id IS NULL, random() LIMIT ?2`,
    )
    .bind(from, opts.limit ?? 5)
    .all<{ id: string; org: string; tz: string }>();
  const built: string[] = [];
  for (const c of results) {
    if (!here(c.org) || (opts.deadline !== undefined && Date.now() >= opts.deadline)) continue;
    if (await buildCampaignRollupsInStretches(db, c.org, c.id, c.tz, { deadline: opts.deadline }))
      built.push(c.id);
  }
  return built;
}
