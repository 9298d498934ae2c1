import { COUNTED_SQL } from "@core/status";
// A large campaign's own analytics rollups (decision 037): built here, kept by every change (rollups.ts).
import type { Database } from "../db/databases";
import { type BuildOptions, buildInStretches } from "./rollup-builds";

/** Builds the campaign's rollups in `timeZone` in stretches of local days (decisions 038, 043), resuming a
 * build under way (`restart` starts over). Returns whether they are built. */
export const buildCampaignRollupsInStretches = (
  db: Database,
  organizationId: string,
  campaignId: string,
  timeZone: string,
  opts: BuildOptions = {},
) => buildInStretches(db, { organizationId, campaignId }, timeZone, opts);

/** The campaign's rollups counted again from its gifts, to the end (tests). Returns whether built. */
export const buildCampaignRollups = (
  db: Database,
  organizationId: string,
  campaignId: string,
  timeZone: string,
) => buildCampaignRollupsInStretches(db, organizationId, campaignId, timeZone, { restart: true });

/** The cron's part: campaigns with at least `from` counted gifts (donations.campaignRollupsFrom; below it,
 * reading the gifts is fast enough) whose rollups are missing or in a zone their organization left, builds
 * under way first, until `deadline` (ms). `here`: whether an organization lives in `db` (decision 027). */
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

/**
 * The units `item` (an SQL expression) has funded, read from donation_item_idx alone (drizzle/0023);
 * `except` (an SQL expression) leaves out the gift being written.
 */
export const itemFundedSql = (item: string, except?: string) =>
  `COALESCE((SELECT SUM(f.item_quantity) FROM donation f WHERE f.campaign_item_id = ${item}${
    except ? ` AND f.id != ${except}` : ""
  } AND ${COUNTED_SQL("f")}), 0)`;
