/**
 * The plans' watch (decision 030), every 15 minutes: a plan late past `plans.pastDueAfterDays` becomes
 * past due, past `plans.lapsedAfterDays` it lapses, each a change of its own (worker/ledger/plan-change.ts:
 * a gift that arrived meanwhile wins); an ended pause resumes the plan; plan rollups missing in an
 * organization's zone are built, a few a run. Bounded and idempotent.
 */
import { duesPassed, type PlanInterval, type PlanStatus } from "@core/plans";
import { localDay } from "@core/time";
import { getConfig } from "../config";
import type { Database } from "../db/databases";
import { type PlanRow, planChangeBatch } from "../ledger/plan-change";
import { rebuildPlanRollups } from "../ledger/plan-rollups";
import { resumedPlan } from "./service";

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
          event: { kind: "status", at, reason: `No donation ${days} days after it was due` },
          audit: {
            action: `plan.${target}`,
            before: { status: plan.status },
            after: { status: target },
            reason: `No donation ${days} days after it was due`,
          },
        },
      ).statements,
    );
  }
  // Pauses that have ended: the plan is active again from that day, expecting its next due gift.
  const { results: ended } = await db
    .prepare(
      `SELECT p.*, o.time_zone AS tz FROM recurring_plan p JOIN organization o ON o.id = p.organization_id
        WHERE p.status = 'paused' AND p.resume_at <= ?1 ORDER BY p.resume_at LIMIT ?2`,
    )
    .bind(now, PER_RUN)
    .all<PlanRow & { tz: string }>();
  for (const { tz, ...plan } of ended) {
    const reason = `The pause ended on ${localDay(plan.resume_at as number, tz)}`;
    statements.push(
      planChangeBatch(
        db,
        { env, user: null, org: { id: plan.organization_id, timeZone: tz } },
        {
          before: plan,
          after: resumedPlan(plan, tz, now),
          // The day it resumed, not the run that noticed: the month it rejoined revenue in.
          event: { kind: "status", at: Math.min(now, plan.resume_at as number), reason },
          audit: {
            action: "plan.resume",
            before: { status: plan.status },
            after: { status: "active" },
            reason,
          },
        },
      ).statements,
    );
  }
  for (let i = 0; i < statements.length; i += PER_BATCH)
    await db.batch(statements.slice(i, i + PER_BATCH).flat());
  return results.length + ended.length;
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
