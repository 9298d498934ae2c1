/** Cron jobs (wrangler.toml [triggers]), idempotent and bounded: a missed or repeated run is harmless. */
import {
  type Database,
  databaseNamed,
  databaseNameOf,
  databaseNames,
  directoryDatabase,
} from "./db/databases";

type Job = (env: Env, now: Date) => Promise<unknown>;

/** How long a cron run spends on each kind of rollup build (decision 038); the next run resumes. */
const DAILY_BUILD_MS = 20_000;

/** Runs `job` on every database holding organizations, one after the other (decision 027). */
async function eachDatabase(env: Env, job: (db: Database, name: string) => Promise<unknown>) {
  for (const name of databaseNames(env)) await job(databaseNamed(env, name), name);
}

/** Live organizations of database `name`: a deleted one's rows wait for the purge (decision 047). */
async function liveIn(env: Env, name: string): Promise<(orgId: string) => boolean> {
  const { results } = await directoryDatabase(env)
    .prepare("SELECT id FROM organization WHERE status = 'archived'")
    .all<{ id: string }>();
  const deleted = new Set(results.map((r) => r.id));
  return (orgId) => databaseNameOf(env, orgId) === name && !deleted.has(orgId);
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
  // Pending gifts older than donations.abandonAfterHours become abandoned (DESIGN §4), 1 000 a run,
  // audited; org_daily counts no pending gift, donation_totals and donation_daily_totals move. The one
  // set-based donation write outside worker/ledger/donation-change.ts (decision 020): each statement
  // selects its gifts inside this transaction, so none acts on a stale read, and tokens are renewed.
  (env, now) =>
    eachDatabase(env, async (db) => {
      const { getConfig } = await import("./config");
      const { dayKey } = await import("@core/time");
      const { builtSql } = await import("./ledger/rollups");
      const { zoneRows } = await import("./ledger/rollup-builds");
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
        // The one set-based audit write: a row per abandoned gift, chosen by the update's SELECT.
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
        // Fresh change tokens: a request that read a gift before this batch loses its race (decision 020).
        db
          .prepare(
            `UPDATE donation SET status = 'abandoned', updated_at = ?1, change_token = lower(hex(randomblob(16))) WHERE id IN (${stale})`,
          )
          .bind(now.getTime(), cutoff, days),
      ]);
    }),
  // Per-day rollups of organizations without them in their zone (a new organization, a zone change, a
  // write in a zone it had left), builds under way first, for DAILY_BUILD_MS a run (decisions 038, 043);
  // org_daily is recounted with them, as such a write put its delta on the old zone's day.
  (env) =>
    eachDatabase(env, async (db, name) => {
      const { buildDailyRollups } = await import("./ledger/rollups");
      const { results } = await db
        .prepare(
          `SELECT o.id, o.time_zone FROM organization o LEFT JOIN donation_daily_state s ON s.organization_id = o.id
             LEFT JOIN donation_daily_build b ON b.organization_id = o.id AND b.time_zone = o.time_zone
            WHERE o.status != 'archived' AND (s.time_zone IS NULL OR s.time_zone != o.time_zone)
            ORDER BY b.organization_id IS NULL, random() LIMIT 5`,
        )
        .all<{ id: string; time_zone: string }>();
      const deadline = Date.now() + DAILY_BUILD_MS;
      // The directory keeps a row for every organization: only those whose data is here.
      for (const o of results)
        if (databaseNameOf(env, o.id) === name && Date.now() < deadline)
          await buildDailyRollups(db, o.id, o.time_zone, { deadline });
    }),
  // Large campaigns' own rollups (decision 037), past donations.campaignRollupsFrom gifts and missing in
  // their organization's zone, in stretches of days (decisions 038, 043), builds under way first.
  (env) =>
    eachDatabase(env, async (db, name) => {
      const { getConfig } = await import("./config");
      const { buildLargeCampaigns } = await import("./ledger/campaign-rollups");
      const from = getConfig(env).donations.campaignRollupsFrom;
      await buildLargeCampaigns(db, await liveIn(env, name), from, {
        deadline: Date.now() + DAILY_BUILD_MS,
      });
    }),
  // Recurring plans: late ones go past due, then lapse; missing plan rollups built (worker/plans/cron.ts).
  (env, now) =>
    eachDatabase(env, async (db, name) => {
      const { buildMissingPlanRollups, watchPlans } = await import("./plans/cron");
      await watchPlans(env, db, now.getTime());
      await buildMissingPlanRollups(db, await liveIn(env, name));
    }),
  // Receipts queued to go out on their own that the change's own attempt did not send.
  (env) =>
    eachDatabase(env, async (db, name) => {
      const { deliverQueuedIn } = await import("./receipts/delivery");
      await deliverQueuedIn(env, db, await liveIn(env, name));
    }),
  // Ended campaigns (unless they take late gifts) and reached ones set to complete on their goal.
  (env, now) =>
    eachDatabase(env, async (db) => {
      const { completeEndedCampaigns } = await import("./campaigns/queries");
      await completeEndedCampaigns(db, now.getTime());
    }),
  // Deleted organizations purged in bounded steps, lapsed ownership offers closed (decisions 047, 046).
  async (env, now) => {
    const { purgeDeletedOrganizations } = await import("./organization/deletion/purge");
    await purgeDeletedOrganizations(env, { deadline: Date.now() + DAILY_BUILD_MS });
    const { expireOffers } = await import("./organization/ownership/service");
    await expireOffers(env, now.getTime());
  },
];
const nightly: Job[] = [
  async (env, now) => {
    const { recomputeAutomaticBadges } = await import("./badges/service");
    await recomputeAutomaticBadges(env, now.getTime());
  },
  // Rolling-12-month tiers drift with time alone: recompute every organization's tiers.
  (env) =>
    eachDatabase(env, async (db, name) => {
      const { tierStatement } = await import("./ledger/donor-stats");
      const { results } = await db
        .prepare("SELECT id FROM organization WHERE status != 'archived'")
        .all<{ id: string }>();
      for (const o of results)
        if (databaseNameOf(env, o.id) === name) await tierStatement(db, o.id, null).run();
    }),
];

export async function runScheduled(cron: string, env: Env, now: Date) {
  const jobs = cron === "0 3 * * *" ? nightly : every15Minutes;
  const results = await Promise.allSettled(jobs.map((job) => job(env, now)));
  for (const r of results) if (r.status === "rejected") console.error("cron job failed", cron, r.reason);
  return results;
}
