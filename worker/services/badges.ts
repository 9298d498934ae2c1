/**
 * Automatic organization badges, recomputed nightly (DESIGN §4): `goal_achiever` for an
 * organization with a campaign that reached its goal, `top_fundraiser` for the top 10 % (at least
 * one) of organizations by counted gifts in the last 12 months. Granted and revoked rows are kept.
 */

import { COUNTED_SQL } from "@core/status";
import { generateId } from "../auth/crypto";

export async function recomputeAutomaticBadges(db: D1Database, now = Date.now()) {
  const { results: goal } = await db
    .prepare(
      `SELECT DISTINCT c.organization_id AS id FROM campaign c JOIN campaign_stats s ON s.campaign_id = c.id
        WHERE (c.goal_type = 'amount' AND s.raised_minor >= c.goal_amount_minor)
           OR (c.goal_type = 'donations' AND s.donation_count >= c.goal_count)
           OR (c.goal_type = 'donors' AND s.donor_count >= c.goal_count)`,
    )
    .all<{ id: string }>();
  const { results: ranked } = await db
    .prepare(
      `SELECT d.organization_id AS id, SUM(d.amount_minor - d.refunded_minor) AS total FROM donation d
        WHERE ${COUNTED_SQL("d")} AND d.donated_at >= ? GROUP BY d.organization_id HAVING total > 0 ORDER BY total DESC`,
    )
    .bind(now - 365 * 86400_000)
    .all<{ id: string; total: number }>();
  const top = ranked.slice(0, Math.max(1, Math.ceil(ranked.length * 0.1))).map((r) => r.id);
  const want: Record<string, Set<string>> = {
    goal_achiever: new Set(goal.map((g) => g.id)),
    top_fundraiser: new Set(top),
  };
  const stmts: D1PreparedStatement[] = [];
  for (const [badge, orgs] of Object.entries(want)) {
    const { results: held } = await db
      .prepare("SELECT id, organization_id FROM organization_badge WHERE badge = ? AND revoked_at IS NULL")
      .bind(badge)
      .all<{ id: string; organization_id: string }>();
    const heldBy = new Set(held.map((h) => h.organization_id));
    for (const h of held) {
      if (!orgs.has(h.organization_id)) {
        stmts.push(
          db
            .prepare(
              "UPDATE organization_badge SET revoked_at = ?, reason = 'no longer qualifies', updated_at = ? WHERE id = ?",
            )
            .bind(now, now, h.id),
        );
      }
    }
    for (const org of orgs) {
      if (!heldBy.has(org)) {
        stmts.push(
          db
            .prepare(
              "INSERT INTO organization_badge (id, organization_id, badge, granted_by, reason, created_at, updated_at) VALUES (?, ?, ?, NULL, 'automatic', ?, ?)",
            )
            .bind(generateId(), org, badge, now, now),
        );
      }
    }
  }
  for (let i = 0; i < stmts.length; i += 100) await db.batch(stmts.slice(i, i + 100));
  return { granted: stmts.length };
}
