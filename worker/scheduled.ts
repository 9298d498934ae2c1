/**
 * Cron jobs (wrangler.toml [triggers]). Each job is idempotent and bounded, so a missed or
 * repeated run is harmless. Feature modules register their jobs here.
 */
import {
  type Database,
  databaseNamed,
  databaseNameOf,
  databaseNames,
  directoryDatabase,
} from "./db/databases";

type Job = (env: Env, now: Date) => Promise<unknown>;

/**
 * How long a run of the cron spends on each kind of rollup build, the organizations' per-day ones
 * and large campaigns' own (decision 038); the next run resumes.
 */
const DAILY_BUILD_MS = 20_000;

/**
 * Runs `job` on every database holding organizations (decision 027), one after the other: a job
 * on organizations' data covers them all, whichever database each lives in.
 */
async function eachDatabase(env: Env, job: (db: Database, name: string) => Promise<unknown>) {
  for (const name of databaseNames(env)) await job(databaseNamed(env, name), name);
}

const every15Minutes: Job[] = [
  async (env, now) => {
    const t = now.getTime();
    const db = directoryDatabase(env);
    await db.batch([
      db.prepare("DELETE FROM session WHERE expires_at < ?").bind(t),
      db.prepare("DELETE FROM verification WHERE expires_at < ?").bind(t),
      db.prepare("DELETE FROM rate_limit WHERE window_start < ?").bind(t - 3600_000),
    ]);
  },
  // Pending donations older than the configured window (72 h) become abandoned (DESIGN §4), each
  // with its audit row in the same batch. Pending gifts are never counted, so org_daily does not
  // move; donation_totals and donation_daily_totals (all statuses) do.
  // At most 1 000 per run (bounded); the next run takes the rest. The one set-based donation write
  // outside worker/donations/write.ts (decision 020): every statement selects its gifts
  // inside this one transaction, so it cannot act on a stale read, and it renews their tokens.
  (env, now) =>
    eachDatabase(env, async (db) => {
      const { getConfig } = await import("./config");
      const { dayKey } = await import("@core/time");
      const { builtSql } = await import("./donations/rollups");
      const { zoneRows } = await import("./donations/rollup-builds");
      const hours = getConfig(env).donations.abandonAfterHours;
      const cutoff = now.getTime() - hours * 3600_000;
      const candidates =
        "SELECT id FROM donation WHERE status = 'pending' AND created_at < ?2 ORDER BY created_at, id LIMIT 1000";
      // Local days need each organization's zone (JavaScript): read the candidates first, and let the
      // batch take only those still pending with the date their day was computed from.
      const { results } = await db
        .prepare(
          `SELECT d.id, d.donated_at AS at, o.time_zone AS tz FROM donation d JOIN organization o ON o.id = d.organization_id
        WHERE d.id IN (${candidates.replace("?2", "?1")})`,
        )
        .bind(cutoff)
        .all<{ id: string; at: number; tz: string }>();
      if (!results.length) return;
      const days = JSON.stringify(results.map((r) => [r.id, r.at, dayKey(r.at, r.tz), r.tz]));
      const stale = `SELECT d.id FROM donation d WHERE d.status = 'pending' AND d.created_at < ?2
      AND EXISTS (SELECT 1 FROM json_each(?3) WHERE json_extract(value, '$[0]') = d.id AND json_extract(value, '$[1]') = d.donated_at)
      ORDER BY d.created_at, d.id LIMIT 1000`;
      // [id, donated_at, day, zone] of the gifts the batch moves, as rows.
      const moved = `SELECT d.organization_id, d.currency, d.mode, d.trashed_at, d.amount_minor, d.refunded_minor,
        d.donated_at AS at, json_extract(j.value, '$[2]') AS day, json_extract(j.value, '$[3]') AS tz
        FROM donation d JOIN json_each(?3) j ON json_extract(j.value, '$[0]') = d.id AND json_extract(j.value, '$[1]') = d.donated_at
       WHERE d.id IN (${stale})`;
      await db.batch([
        // The one set-based audit write: a row per gift the batch abandons, chosen by the same SELECT
        // as the update (auditInsert in worker/lib/audit.ts writes one row; up to 1 000 here).
        db
          .prepare(
            `INSERT INTO audit_event (id, organization_id, actor_id, action, entity_type, entity_id, before, after, reason, at)
         SELECT lower(hex(randomblob(16))), organization_id, NULL, 'donation.abandon', 'donation', id,
                '{"status":"pending"}', '{"status":"abandoned"}', ?4, ?1
           FROM donation WHERE id IN (${stale})`,
          )
          .bind(now.getTime(), cutoff, days, `Pending for more than ${hours} hours`),
        // donation_totals moves the same gifts from pending to abandoned (before the update).
        db
          .prepare(
            `INSERT INTO donation_totals (organization_id, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
         SELECT d.organization_id, d.currency, s.status, d.mode, d.trashed_at IS NOT NULL,
                s.sign * COUNT(*), s.sign * SUM(d.amount_minor), s.sign * SUM(d.refunded_minor)
           FROM donation d, (SELECT 'pending' AS status, -1 AS sign UNION ALL SELECT 'abandoned', 1) s
          WHERE d.id IN (${stale}) GROUP BY 1, 2, 3, 4, 5
         ON CONFLICT (organization_id, currency, status, mode, trashed) DO UPDATE SET
           donation_count = donation_count + excluded.donation_count, amount_minor = amount_minor + excluded.amount_minor,
           refunded_minor = refunded_minor + excluded.refunded_minor`,
          )
          .bind(now.getTime(), cutoff, days),
        // The same for donation_daily_totals where it is built in the zone the day was computed in
        // (rollupStatements' rule); a gift whose day came from another zone deletes the state.
        db
          .prepare(
            `INSERT INTO donation_daily_totals (organization_id, day, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
         SELECT m.organization_id, m.day, m.currency, s.status, m.mode, m.trashed_at IS NOT NULL,
                s.sign * COUNT(*), s.sign * SUM(m.amount_minor), s.sign * SUM(m.refunded_minor)
           FROM (${moved}) m, (SELECT 'pending' AS status, -1 AS sign UNION ALL SELECT 'abandoned', 1) s
          WHERE ${builtSql("organization_id", "m.organization_id", "m.tz", "m.at")}
          GROUP BY 1, 2, 3, 4, 5, 6
         ON CONFLICT (organization_id, day, currency, status, mode, trashed) DO UPDATE SET
           donation_count = donation_count + excluded.donation_count, amount_minor = amount_minor + excluded.amount_minor,
           refunded_minor = refunded_minor + excluded.refunded_minor`,
          )
          .bind(now.getTime(), cutoff, days),
        ...zoneRows("organization_id").map((table) =>
          db
            .prepare(
              `DELETE FROM ${table} WHERE EXISTS (SELECT 1 FROM (${moved}) m
            WHERE m.organization_id = ${table}.organization_id AND m.tz != ${table}.time_zone)`,
            )
            .bind(now.getTime(), cutoff, days),
        ),
        // A fresh change token per gift: a request that read one of them before this batch loses its
        // race instead of writing deltas from the pending row (decision 020).
        db
          .prepare(
            `UPDATE donation SET status = 'abandoned', updated_at = ?1, change_token = lower(hex(randomblob(16))) WHERE id IN (${stale})`,
          )
          .bind(now.getTime(), cutoff, days),
      ]);
    }),
  // The per-day rollups of organizations without them built in their zone (a new organization, a
  // time-zone change, a write that computed its day in a zone the organization had left), month by
  // month, a batch per stretch of about 50 000 gifts (decision 038), for up to 20 s a run; the next
  // run resumes. Builds under way first; the list and the dashboard read the gifts meanwhile.
  // org_daily is recounted with them: such a write put its delta on the old zone's day.
  (env) =>
    eachDatabase(env, async (db, name) => {
      const { buildDailyRollups } = await import("./donations/rollups");
      const { results } = await db
        .prepare(
          `SELECT o.id, o.time_zone FROM organization o LEFT JOIN donation_daily_state s ON s.organization_id = o.id
             LEFT JOIN donation_daily_build b ON b.organization_id = o.id AND b.time_zone = o.time_zone
            WHERE s.time_zone IS NULL OR s.time_zone != o.time_zone ORDER BY b.organization_id IS NULL, random() LIMIT 5`,
        )
        .all<{ id: string; time_zone: string }>();
      const deadline = Date.now() + DAILY_BUILD_MS;
      // The directory keeps a row for every organization: only those whose data is here.
      for (const o of results)
        if (databaseNameOf(env, o.id) === name && Date.now() < deadline)
          await buildDailyRollups(db, o.id, o.time_zone, { deadline });
    }),
  // Large campaigns' own analytics rollups (decision 037): built for campaigns past
  // `donations.campaignRollupsFrom` counted gifts that have none, or have them in a zone their
  // organization has left (a time-zone change), in stretches of days (decisions 038, 043) for up
  // to 20 s a run, builds under way first; campaign analytics reads the gifts meanwhile.
  (env) =>
    eachDatabase(env, async (db, name) => {
      const { getConfig } = await import("./config");
      const { buildLargeCampaigns } = await import("./campaigns/analytics/rollups");
      const from = getConfig(env).donations.campaignRollupsFrom;
      await buildLargeCampaigns(db, (orgId) => databaseNameOf(env, orgId) === name, from, {
        deadline: Date.now() + DAILY_BUILD_MS,
      });
    }),
  // Recurring plans (issue 24): late gifts make plans past due, then lapsed; plan rollups are built
  // for organizations without them (worker/plans/cron.ts).
  (env, now) =>
    eachDatabase(env, async (db, name) => {
      const { buildMissingPlanRollups, watchPlans } = await import("./plans/cron");
      await watchPlans(env, db, now.getTime());
      await buildMissingPlanRollups(db, (orgId) => databaseNameOf(env, orgId) === name);
    }),
  // Receipts queued to go out on their own that the change's own attempt did not send (issue 25).
  (env) =>
    eachDatabase(env, async (db, name) => {
      const { deliverQueuedIn } = await import("./receipts/delivery");
      await deliverQueuedIn(env, db, (orgId) => databaseNameOf(env, orgId) === name);
    }),
  // Campaigns past their end date complete unless they accept gifts after the end; goal-reached
  // campaigns complete when configured.
  (env, now) =>
    eachDatabase(env, async (db) => {
      const { completeEndedCampaigns } = await import("./campaigns/queries");
      await completeEndedCampaigns(db, now.getTime());
    }),
];
const nightly: Job[] = [
  async (env, now) => {
    const { recomputeAutomaticBadges } = await import("./badges/service");
    await recomputeAutomaticBadges(env, now.getTime());
  },
  // Rolling-12-month tiers drift with time alone: recompute every organization's tiers.
  (env) =>
    eachDatabase(env, async (db, name) => {
      const { tierStatement } = await import("./donors/stats");
      const { results } = await db.prepare("SELECT id FROM organization").all<{ id: string }>();
      for (const o of results)
        if (databaseNameOf(env, o.id) === name) await tierStatement(db, o.id, null).run();
    }),
];

export const scheduledJobs = { every15Minutes, nightly };

export async function runScheduled(cron: string, env: Env, now: Date) {
  const jobs = cron === "0 3 * * *" ? nightly : every15Minutes;
  const results = await Promise.allSettled(jobs.map((job) => job(env, now)));
  for (const r of results) if (r.status === "rejected") console.error("cron job failed", cron, r.reason);
  return results;
}
