/** SQL of organization badges (DESIGN §4); a badge is held while not revoked and not expired. */
import type { BadgeKey } from "@core/badges";
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../db/databases";
import type { organizationBadge } from "../db/domain";
import type { Row } from "../db/rows";
import type { organization, user } from "../db/schema";

type B = Row<typeof organizationBadge>;
type O = Row<typeof organization>;
type U = Row<typeof user>;

/** How many organizations hold each badge now. */
export async function holderCounts(db: Database, now: number) {
  const { results } = await db
    .prepare(
      "SELECT badge, count(*) AS holders FROM organization_badge WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) GROUP BY badge",
    )
    .bind(now)
    .all<{ badge: B["badge"]; holders: number }>();
  return results;
}

/** Every badge not revoked (expired ones included), by organization. */
export async function unrevokedBadges(db: Database) {
  const { results } = await db
    .prepare(
      `SELECT b.id, b.badge, b.reason, b.expires_at AS expiresAt, b.created_at AS grantedAt, o.id AS organizationId, o.name AS organizationName, u.name AS grantedBy
         FROM organization_badge b JOIN organization o ON o.id = b.organization_id LEFT JOIN user u ON u.id = b.granted_by
        WHERE b.revoked_at IS NULL ORDER BY o.name, b.badge`,
    )
    .all<{
      id: B["id"];
      badge: BadgeKey;
      reason: B["reason"];
      expiresAt: B["expires_at"];
      grantedAt: B["created_at"];
      organizationId: O["id"];
      organizationName: O["name"];
      grantedBy: U["name"] | null;
    }>();
  return results;
}

/** The badges one organization holds now. */
export async function heldBy(db: Database, organizationId: string, now: number) {
  const { results } = await db
    .prepare(
      "SELECT id, badge, expires_at AS expiresAt, created_at AS grantedAt FROM organization_badge WHERE organization_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) ORDER BY badge",
    )
    .bind(organizationId, now)
    .all<{ id: B["id"]; badge: B["badge"]; expiresAt: B["expires_at"]; grantedAt: B["created_at"] }>();
  return results;
}

/** A deleted organization (decision 047) is granted nothing. */
export const organizationExists = async (db: Database, id: string) =>
  !!(await db.prepare("SELECT id FROM organization WHERE id = ? AND status != 'archived'").bind(id).first());

export const holds = async (db: Database, organizationId: string, badge: string, now: number) =>
  !!(await db
    .prepare(
      "SELECT id FROM organization_badge WHERE organization_id = ? AND badge = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
    )
    .bind(organizationId, badge, now)
    .first());

export const grantStatement = (
  db: Database,
  b: Pick<B, "id" | "organization_id" | "badge" | "granted_by" | "reason" | "expires_at">,
  now: number,
) =>
  db
    .prepare(
      "INSERT INTO organization_badge (id, organization_id, badge, granted_by, reason, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(b.id, b.organization_id, b.badge, b.granted_by, b.reason, b.expires_at, now, now);

export const unrevokedBadge = (db: Database, id: string) =>
  db
    .prepare("SELECT organization_id, badge FROM organization_badge WHERE id = ? AND revoked_at IS NULL")
    .bind(id)
    .first<Pick<B, "organization_id" | "badge">>();

/** Revokes a badge not yet revoked: a second revocation keeps the first one's date and changes nothing. */
export const revokeStatement = (db: Database, id: string, now: number) =>
  db
    .prepare(
      "UPDATE organization_badge SET revoked_at = ?, updated_at = ? WHERE id = ? AND revoked_at IS NULL",
    )
    .bind(now, now, id);

// The automatic badges (the nightly job).

/** Organizations with a campaign that reached its goal (amount, gifts or donors). */
export async function goalAchievers(db: Database) {
  const { results } = await db
    .prepare(
      `SELECT DISTINCT c.organization_id AS id FROM campaign c JOIN campaign_stats s ON s.campaign_id = c.id
        WHERE (c.goal_type = 'amount' AND s.raised_minor >= c.goal_amount_minor)
           OR (c.goal_type = 'donations' AND s.donation_count >= c.goal_count)
           OR (c.goal_type = 'donors' AND s.donor_count >= c.goal_count)`,
    )
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

/** Organizations by counted gifts (net of refunds) since `from`, largest first; those above zero. */
export async function rankedByGifts(db: Database, from: number) {
  const { results } = await db
    .prepare(
      `SELECT d.organization_id AS id, SUM(d.amount_minor - d.refunded_minor) AS total FROM donation d
        WHERE ${COUNTED_SQL("d")} AND d.donated_at >= ? GROUP BY d.organization_id HAVING total > 0 ORDER BY total DESC`,
    )
    .bind(from)
    .all<{ id: string; total: number }>();
  return results;
}

export async function holdersOf(db: Database, badge: string) {
  const { results } = await db
    .prepare("SELECT id, organization_id FROM organization_badge WHERE badge = ? AND revoked_at IS NULL")
    .bind(badge)
    .all<Pick<B, "id" | "organization_id">>();
  return results;
}

export const revokeAutomaticStatement = (db: Database, id: string, now: number) =>
  db
    .prepare(
      "UPDATE organization_badge SET revoked_at = ?, reason = 'no longer qualifies', updated_at = ? WHERE id = ?",
    )
    .bind(now, now, id);

export const grantAutomaticStatement = (
  db: Database,
  id: string,
  organizationId: string,
  badge: string,
  now: number,
) =>
  db
    .prepare(
      "INSERT INTO organization_badge (id, organization_id, badge, granted_by, reason, created_at, updated_at) VALUES (?, ?, ?, NULL, 'automatic', ?, ?)",
    )
    .bind(id, organizationId, badge, now, now);
