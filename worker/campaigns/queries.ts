/** Campaign SQL (docs/architecture.md: the only place that speaks it). Every query names the tenant. */
import type { CampaignInput, CampaignPhase } from "@core/campaign";
import type { CampaignStatus } from "@core/status";
import type { Database } from "../db/databases";
import type { Guard } from "../lib/guard";
import { add, containsSql, runList, searchNeedle, type Where, where } from "../lib/list";
import type { CampaignRow } from "./present";

/** A campaign with its rollup (campaign_stats; no row yet = nothing raised). */
export const CAMPAIGN_SELECT = `c.*, COALESCE(s.raised_minor, 0) AS raised_minor, COALESCE(s.donation_count, 0) AS donation_count, COALESCE(s.donor_count, 0) AS donor_count`;
export const CAMPAIGN_FROM = "campaign c LEFT JOIN campaign_stats s ON s.campaign_id = c.id";

export function campaignRow(db: Database, orgId: string, id: string) {
  return db
    .prepare(`SELECT ${CAMPAIGN_SELECT} FROM ${CAMPAIGN_FROM} WHERE c.organization_id = ? AND c.id = ?`)
    .bind(orgId, id)
    .first<CampaignRow>();
}

/** The goal is reached: core/campaign.ts `goalProgress` ≥ 1 in SQL (s = campaign_stats). */
const REACHED_SQL = `((c.goal_type = 'amount' AND COALESCE(s.raised_minor,0) >= c.goal_amount_minor) OR (c.goal_type = 'donations' AND COALESCE(s.donation_count,0) >= c.goal_count) OR (c.goal_type = 'donors' AND COALESCE(s.donor_count,0) >= c.goal_count))`;

/** The cron completes ended campaigns (unless they take late gifts) and reached ones set to do so. */
export function completeEndedCampaigns(db: Database, now: number) {
  return db
    .prepare(
      `UPDATE campaign AS c SET status = 'completed', updated_at = ?1
        WHERE c.status IN ('active','paused') AND (
          (c.end_at IS NOT NULL AND c.end_at <= ?1 AND c.accept_after_end = 0)
          OR (c.complete_on_goal = 1 AND EXISTS (SELECT 1 FROM campaign_stats s WHERE s.campaign_id = c.id AND ${REACHED_SQL})))`,
    )
    .bind(now)
    .run();
}

/** core/campaign.ts `campaignPhase` in SQL: `n` parameters, each the instant `now`. */
export function phaseSql(phase: CampaignPhase) {
  const scheduled = "(c.start_at IS NOT NULL AND c.start_at > ?)";
  const ended = "(c.end_at IS NOT NULL AND c.end_at <= ?)";
  switch (phase) {
    case "scheduled":
      return { sql: scheduled, n: 1 };
    case "ended":
      return { sql: `(NOT ${scheduled} AND ${ended})`, n: 2 };
    case "goal_reached":
      return { sql: `(NOT ${scheduled} AND NOT ${ended} AND ${REACHED_SQL})`, n: 2 };
    case "live":
      return { sql: `(NOT ${scheduled} AND NOT ${ended} AND NOT ${REACHED_SQL})`, n: 2 };
  }
}

export const CAMPAIGN_SORTS = {
  created: "c.created_at",
  title: "c.title",
  raised: "raised_minor",
  donors: "donor_count",
  donations: "donation_count",
  endDate: "c.end_at",
} as const;
export type CampaignSort = keyof typeof CAMPAIGN_SORTS;

/** The list's filters, already resolved to instants where they name days. */
export interface CampaignFilter {
  orgId: string;
  now: number;
  phase?: CampaignPhase[];
  status?: CampaignStatus[];
  q?: string;
  currency?: string;
  ids?: string[];
  goalReached?: boolean;
  /** Running at some point at or after this instant / before this instant. */
  runningFrom?: number;
  runningBefore?: number;
}

function campaignWhere(f: CampaignFilter): Where {
  const w = where();
  add(w, "c.organization_id = ?", f.orgId);
  if (f.phase?.length) {
    const parts = f.phase.map(phaseSql);
    add(
      w,
      `(${parts.map((p) => p.sql).join(" OR ")})`,
      ...parts.flatMap((p) => Array.from({ length: p.n }, () => f.now)),
    );
  }
  // A campaign runs from its start (or, without one, its creation) until its end (or forever).
  if (f.runningFrom !== undefined) add(w, "(c.end_at IS NULL OR c.end_at > ?)", f.runningFrom);
  if (f.runningBefore !== undefined) add(w, "COALESCE(c.start_at, c.created_at) < ?", f.runningBefore);
  if (f.status?.length) add(w, `c.status IN (${f.status.map(() => "?").join(",")})`, ...f.status);
  if (f.currency) add(w, "c.currency = ?", f.currency);
  if (f.ids?.length) add(w, `c.id IN (${f.ids.map(() => "?").join(",")})`, ...f.ids);
  if (f.q)
    add(w, `(${containsSql("c.title")} OR ${containsSql("c.slug")})`, searchNeedle(f.q), searchNeedle(f.q));
  // Only campaigns with a goal can have reached it or not.
  if (f.goalReached !== undefined)
    add(w, f.goalReached ? REACHED_SQL : `(c.goal_type != 'none' AND NOT ${REACHED_SQL})`);
  return w;
}

export function campaignPage(
  db: Database,
  f: CampaignFilter,
  page: { sort: CampaignSort; desc: boolean; page: number; pageSize: number },
) {
  return runList<CampaignRow>(db, {
    select: CAMPAIGN_SELECT,
    from: CAMPAIGN_FROM,
    where: campaignWhere(f),
    orderBy: CAMPAIGN_SORTS[page.sort],
    desc: page.desc,
    page: page.page,
    pageSize: page.pageSize,
    tiebreak: "c.id",
  });
}

/** Ids and statuses the list's WHERE matches, newest first, at most `limit` (campaigns.matchingIds). */
export function matchingCampaigns(db: Database, f: CampaignFilter, limit: number) {
  const w = campaignWhere(f);
  return db
    .prepare(
      `SELECT c.id, c.status FROM ${CAMPAIGN_FROM} WHERE ${w.sql.join(" AND ")} ORDER BY c.created_at DESC, c.id DESC LIMIT ?`,
    )
    .bind(...w.params, limit)
    .all<{ id: string; status: CampaignStatus }>();
}

/** The organization's campaigns among `ids` (one parameter for the ids, however many). */
export async function campaignsByIds(db: Database, orgId: string, ids: readonly string[]) {
  const { results } = await db
    .prepare(
      `SELECT ${CAMPAIGN_SELECT} FROM ${CAMPAIGN_FROM} WHERE c.organization_id = ? AND c.id IN (SELECT value FROM json_each(?))`,
    )
    .bind(orgId, JSON.stringify(ids))
    .all<CampaignRow>();
  return results;
}

/** Slugs used or once used that are one of `bases` or start with one and a dash, in one statement. */
export async function slugsTaken(db: Database, orgId: string, bases: readonly string[]) {
  const { results } = await db
    .prepare(
      // A prefix by substr, not LIKE: D1's LIKE takes patterns of 50 bytes at most, and slugs run to 60.
      `WITH b(base, prefix) AS (SELECT value, value || '-' FROM json_each(?2))
       SELECT c.slug FROM b JOIN campaign c ON c.organization_id = ?1
          AND (c.slug = b.base OR substr(c.slug, 1, length(b.prefix)) = b.prefix)
       UNION SELECT s.slug FROM b JOIN campaign_slug s ON s.organization_id = ?1
          AND (s.slug = b.base OR substr(s.slug, 1, length(b.prefix)) = b.prefix)`,
    )
    .bind(orgId, JSON.stringify(bases))
    .all<{ slug: string }>();
  return new Set(results.map((r) => r.slug));
}

/** Whether a campaign other than `exceptId` uses or used `slug`. */
export async function slugTaken(db: Database, orgId: string, slug: string, exceptId?: string) {
  if (exceptId === undefined) {
    const taken = await db.batch([
      db.prepare("SELECT 1 FROM campaign WHERE organization_id = ? AND slug = ?").bind(orgId, slug),
      db.prepare("SELECT 1 FROM campaign_slug WHERE organization_id = ? AND slug = ?").bind(orgId, slug),
    ]);
    return taken.some((r) => r.results.length > 0);
  }
  const taken = await db
    .prepare(
      "SELECT 1 FROM campaign WHERE organization_id = ?1 AND slug = ?2 AND id != ?3 UNION SELECT 1 FROM campaign_slug WHERE organization_id = ?1 AND slug = ?2 AND campaign_id != ?3",
    )
    .bind(orgId, slug, exceptId)
    .first();
  return !!taken;
}

export async function hasDonations(db: Database, campaignId: string) {
  return !!(await db
    .prepare("SELECT 1 FROM donation WHERE campaign_id = ? LIMIT 1")
    .bind(campaignId)
    .first());
}

/** The form's columns, in the order insertCampaign and updateCampaign bind them. */
function formColumns(d: CampaignInput, slug: string) {
  return [
    d.title,
    slug,
    d.shortDescription ?? null,
    d.description ?? null,
    d.coverUrl ?? null,
    d.currency,
    d.goalType,
    d.goalType === "amount" ? d.goalAmountMinor : null,
    d.goalType === "donations" || d.goalType === "donors" ? d.goalCount : null,
    d.startAt ?? null,
    d.endAt ?? null,
    d.acceptAfterEnd ? 1 : 0,
    d.completeOnGoal ? 1 : 0,
    JSON.stringify(d.suggestedAmounts),
    d.minAmountMinor,
    d.maxAmountMinor,
    d.allowRecurring ? 1 : 0,
    d.visibility,
  ];
}

export function insertCampaign(
  db: Database,
  c: { id: string; orgId: string; slug: string; createdBy: string; now: number },
  d: CampaignInput,
) {
  return db
    .prepare(
      `INSERT INTO campaign (id, organization_id, title, slug, short_description, description, cover_url, currency, goal_type, goal_amount_minor, goal_count,
           start_at, end_at, accept_after_end, complete_on_goal, suggested_amounts, min_amount_minor, max_amount_minor, allow_recurring, visibility, status, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?)`,
    )
    .bind(c.id, c.orgId, ...formColumns(d, c.slug), c.createdBy, c.now, c.now);
}

/** Every form column of the campaign, if `guard` holds. */
export function updateCampaign(
  db: Database,
  c: { id: string; orgId: string; slug: string; now: number },
  d: CampaignInput,
  guard: Guard,
) {
  return db
    .prepare(
      `UPDATE campaign SET title = ?1, slug = ?2, short_description = ?3, description = ?4, cover_url = ?5, currency = ?6, goal_type = ?7, goal_amount_minor = ?8, goal_count = ?9,
           start_at = ?10, end_at = ?11, accept_after_end = ?12, complete_on_goal = ?13, suggested_amounts = ?14, min_amount_minor = ?15, max_amount_minor = ?16, allow_recurring = ?17, visibility = ?18, updated_at = ?19
         WHERE id = ?20 AND organization_id = ?21 AND ${guard.sql(22)}`,
    )
    .bind(...formColumns(d, c.slug), c.now, c.id, c.orgId, ...guard.args);
}

/** The old slug keeps redirecting to the campaign; the new one stops redirecting anywhere. */
export function moveSlugStatements(
  db: Database,
  c: { id: string; orgId: string; from: string; to: string; now: number },
  guard: Guard,
) {
  return [
    db
      .prepare(
        `INSERT OR REPLACE INTO campaign_slug (organization_id, slug, campaign_id, created_at) SELECT ?1, ?2, ?3, ?4 WHERE ${guard.sql(5)}`,
      )
      .bind(c.orgId, c.from, c.id, c.now, ...guard.args),
    db
      .prepare(`DELETE FROM campaign_slug WHERE organization_id = ?1 AND slug = ?2 AND ${guard.sql(3)}`)
      .bind(c.orgId, c.to, ...guard.args),
  ];
}

/**
 * The campaign exists and may take `currency` (DESIGN §4: fixed once a donation exists), checked in
 * the batch so a gift recorded between the read and the write keeps its currency (decision 020).
 */
export const currencyMayBecome = (campaignId: string, currency: string): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM campaign WHERE id = ?${p} AND (currency = ?${p + 1} OR NOT EXISTS (SELECT 1 FROM donation WHERE campaign_id = ?${p})))`,
  args: [campaignId, currency],
});

/** The campaign exists and no gift names it (a gift recorded meanwhile would lose its campaign). */
export const campaignUnused = (campaignId: string): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM campaign WHERE id = ?${p}) AND NOT EXISTS (SELECT 1 FROM donation WHERE campaign_id = ?${p})`,
  args: [campaignId],
});

export function deleteCampaign(db: Database, orgId: string, id: string, guard: Guard) {
  return db
    .prepare(`DELETE FROM campaign WHERE id = ?1 AND organization_id = ?2 AND ${guard.sql(3)}`)
    .bind(id, orgId, ...guard.args);
}

/** The status write, guarded by the status read: a concurrent change makes it a no-op. */
export function setStatus(
  db: Database,
  c: { id: string; orgId: string; from: CampaignStatus; to: CampaignStatus; now: number },
) {
  return db
    .prepare(
      `UPDATE campaign SET status = ?, updated_at = ?, published_at = CASE WHEN ? = 'active' AND published_at IS NULL THEN ? ELSE published_at END,
           archived_at = CASE WHEN ? = 'archived' THEN ? WHEN ? = 'draft' THEN NULL ELSE archived_at END
         WHERE id = ? AND organization_id = ? AND status = ?`,
    )
    .bind(c.to, c.now, c.to, c.now, c.to, c.now, c.to, c.id, c.orgId, c.from);
}
