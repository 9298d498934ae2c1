/**
 * The plans' watch (issue 24, decision 030), every 15 minutes from worker/scheduled.ts: a plan
 * whose expected gift is late past `plans.pastDueAfterDays` (app.config.ts) becomes past due, one
 * late past `plans.lapsedAfterDays` lapses (and leaves recurring revenue), each as a change of its
 * own through ./write.ts (conditional on the plan as read: a gift that arrived meanwhile wins). And
 * the plan rollups of organizations without them (drizzle/0016, a zone change) are built, a few per
 * run. Bounded and idempotent, like every job there.
 */
import { duesPassed, type PlanInterval, type PlanStatus } from "@core/plans";
import { getConfig } from "../config";
import type { Database } from "../db/databases";
import { rebuildPlanRollups } from "./rollups";
import { type PlanRow, planChangeBatch } from "./write";

const DAY_MS = 86_400_000;
/** Plans moved per run and per batch: each is about six statements. */
const PER_RUN = 400;
const PER_BATCH = 50;

/** Marks late plans past due or lapsed in `db`; returns how many moved. */
export async function watchPlans(env: Env, db: Database, now: number): Promise<number> {
  const { pastDueAfterDays, lapsedAfterDays } = getConfig(env).plans;
  const { results } = await db
    .prepare(
      `SELECT p.*, o.time_zone AS tz FROM recurring_plan p JOIN organization o ON o.id = p.organization_id
        WHERE (p.status = 'active' AND p.next_expected_at < ?1) OR (p.status = 'past_due' AND p.next_expected_at < ?2)
        ORDER BY p.next_expected_at LIMIT ?3`,
    )
    .bind(now - pastDueAfterDays * DAY_MS, now - lapsedAfterDays * DAY_MS, PER_RUN)
    .all<PlanRow & { tz: string }>();
  const statements: D1PreparedStatement[][] = [];
  for (const { tz, ...plan } of results) {
    const due = plan.next_expected_at as number;
    const lapse = due < now - lapsedAfterDays * DAY_MS;
    const target: PlanStatus = lapse ? "lapsed" : "past_due";
    // When the plan crossed the line, not when this run noticed: the month it left revenue in.
    const at = Math.min(now, due + (lapse ? lapsedAfterDays : pastDueAfterDays) * DAY_MS);
    const after: PlanRow = {
      ...plan,
      status: target,
      status_changed_at: now,
      missed_count: duesPassed(due, plan.interval as PlanInterval, plan.interval_day, tz, now),
      updated_at: now,
    };
    const days = lapse ? lapsedAfterDays : pastDueAfterDays;
    statements.push(
      planChangeBatch(
        db,
        { env, user: null, org: { id: plan.organization_id, timeZone: tz } },
        {
          before: plan,
          after,
          event: { kind: "status", at, reason: `No gift ${days} days after it was due` },
          audit: {
            action: `plan.${target}`,
            before: { status: plan.status },
            after: { status: target },
            reason: `No gift ${days} days after it was due`,
          },
        },
      ).statements,
    );
  }
  for (let i = 0; i < statements.length; i += PER_BATCH)
    await db.batch(statements.slice(i, i + PER_BATCH).flat());
  return results.length;
}

/** Builds the plan rollups of a few organizations whose months are not built in their zone. */
export async function buildMissingPlanRollups(
  db: Database,
  inThisDatabase: (orgId: string) => boolean,
  limit = 5,
) {
  const { results } = await db
    .prepare(
      `SELECT o.id, o.time_zone FROM organization o LEFT JOIN plan_rollup_state s ON s.organization_id = o.id
        WHERE (s.time_zone IS NULL OR s.time_zone != o.time_zone)
          AND EXISTS (SELECT 1 FROM recurring_plan p WHERE p.organization_id = o.id)
        ORDER BY random() LIMIT ?`,
    )
    .bind(limit)
    .all<{ id: string; time_zone: string }>();
  for (const o of results) if (inThisDatabase(o.id)) await rebuildPlanRollups(db, o.id, o.time_zone);
}
