/**
 * Cron jobs (wrangler.toml [triggers]). Each job is idempotent and bounded, so a missed or
 * repeated run is harmless. Feature modules register their jobs here.
 */
type Job = (env: Env, now: Date) => Promise<unknown>;

const every15Minutes: Job[] = [
  async (env, now) => {
    const t = now.getTime();
    await env.DB.batch([
      env.DB.prepare("DELETE FROM session WHERE expires_at < ?").bind(t),
      env.DB.prepare("DELETE FROM verification WHERE expires_at < ?").bind(t),
      env.DB.prepare("DELETE FROM rate_limit WHERE window_start < ?").bind(t - 3600_000),
    ]);
  },
  // Pending donations older than the configured window (72 h) become abandoned (DESIGN §4), each
  // with its audit row in the same batch. Pending gifts are never counted, so org_daily does not
  // move; donation_totals (all statuses) does.
  // At most 1 000 per run (bounded); the next run takes the rest.
  async (env, now) => {
    const { getConfig } = await import("./config");
    const hours = getConfig(env).donations.abandonAfterHours;
    const cutoff = now.getTime() - hours * 3600_000;
    const stale =
      "SELECT id FROM donation WHERE status = 'pending' AND created_at < ?2 ORDER BY created_at, id LIMIT 1000";
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO audit_event (id, organization_id, actor_id, action, entity_type, entity_id, before, after, reason, at)
         SELECT lower(hex(randomblob(16))), organization_id, NULL, 'donation.abandon', 'donation', id,
                '{"status":"pending"}', '{"status":"abandoned"}', ?3, ?1
           FROM donation WHERE id IN (${stale})`,
      ).bind(now.getTime(), cutoff, `Pending for more than ${hours} hours`),
      // donation_totals moves the same gifts from pending to abandoned (before the update).
      env.DB.prepare(
        `INSERT INTO donation_totals (organization_id, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
         SELECT d.organization_id, d.currency, s.status, d.mode, d.trashed_at IS NOT NULL,
                s.sign * COUNT(*), s.sign * SUM(d.amount_minor), s.sign * SUM(d.refunded_minor)
           FROM donation d, (SELECT 'pending' AS status, -1 AS sign UNION ALL SELECT 'abandoned', 1) s
          WHERE d.id IN (${stale}) GROUP BY 1, 2, 3, 4, 5
         ON CONFLICT (organization_id, currency, status, mode, trashed) DO UPDATE SET
           donation_count = donation_count + excluded.donation_count, amount_minor = amount_minor + excluded.amount_minor,
           refunded_minor = refunded_minor + excluded.refunded_minor`,
      ).bind(now.getTime(), cutoff),
      env.DB.prepare(`UPDATE donation SET status = 'abandoned', updated_at = ?1 WHERE id IN (${stale})`).bind(
        now.getTime(),
        cutoff,
      ),
    ]);
  },
  // Campaigns past their end date complete unless they accept gifts after the end; goal-reached
  // campaigns complete when configured.
  async (env, now) => {
    const t = now.getTime();
    await env.DB.prepare(
      `UPDATE campaign SET status = 'completed', updated_at = ?1
        WHERE status IN ('active','paused') AND (
          (end_at IS NOT NULL AND end_at <= ?1 AND accept_after_end = 0)
          OR (complete_on_goal = 1 AND EXISTS (SELECT 1 FROM campaign_stats s WHERE s.campaign_id = campaign.id AND (
               (campaign.goal_type = 'amount' AND s.raised_minor >= campaign.goal_amount_minor)
            OR (campaign.goal_type = 'donations' AND s.donation_count >= campaign.goal_count)
            OR (campaign.goal_type = 'donors' AND s.donor_count >= campaign.goal_count)))))`,
    )
      .bind(t)
      .run();
  },
];
const nightly: Job[] = [
  async (env, now) => {
    const { recomputeAutomaticBadges } = await import("./services/badges");
    await recomputeAutomaticBadges(env.DB, now.getTime());
  },
  // Rolling-12-month tiers drift with time alone: recompute every organization's tiers.
  async (env) => {
    const { tierStatement } = await import("./services/donor-stats");
    const { results } = await env.DB.prepare("SELECT id FROM organization").all<{ id: string }>();
    for (const o of results) await tierStatement(env.DB, o.id, null).run();
  },
];

export const scheduledJobs = { every15Minutes, nightly };

export async function runScheduled(cron: string, env: Env, now: Date) {
  const jobs = cron === "0 3 * * *" ? nightly : every15Minutes;
  const results = await Promise.allSettled(jobs.map((job) => job(env, now)));
  for (const r of results) if (r.status === "rejected") console.error("cron job failed", cron, r.reason);
  return results;
}
