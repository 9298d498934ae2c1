// The plan rollups (decision 030), kept in the batch of every plan change: its event, plan_totals and
// plan_monthly (while plan_rollup_state names the zone, decision 013), and each plan's gift totals.
import { inMrr, localMonth } from "@core/plans";
import { COUNTED_SQL } from "@core/status";
import { DAY_KEY_FROM_MS, DAY_KEY_UNTIL_MS } from "@core/time";
import type { Database } from "../db/databases";
import type { Guard } from "../lib/guard";
import { planMonthlyRebuildSql } from "./plan-rollups-sql";
import { dailySpans } from "./rollup-sql";

/** What the rollups read of a plan: where it counts and for how much a year. */
export interface PlanFacts {
  organizationId: string;
  currency: string;
  status: string;
  /** core/plans.ts annualMinor of its amount and interval. */
  annual: number;
}

interface PlanEventInput {
  id: string;
  planId: string;
  at: number;
  kind: "created" | "status" | "amount";
  reason?: string | null;
  actorId?: string | null;
}

const inRevenue = (f: PlanFacts | null) => (f && inMrr(f.status) ? f.annual : 0);

/** One plan change's event, plan_totals and plan_monthly deltas, each guarded: the row write landed. */
export function planChangeStatements(
  db: Database,
  before: PlanFacts | null,
  after: PlanFacts,
  e: PlanEventInput,
  timeZone: string,
  guard: Guard,
): D1PreparedStatement[] {
  const org = after.organizationId;
  const was = inRevenue(before);
  const now = inRevenue(after);
  const stmts: D1PreparedStatement[] = [
    db
      .prepare(
        `INSERT INTO plan_event (id, organization_id, plan_id, at, kind, from_status, to_status, currency, annual_before, annual_after, reason, actor_id)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12 WHERE ${guard.sql(13)}`,
      )
      .bind(
        e.id,
        org,
        e.planId,
        e.at,
        e.kind,
        before?.status ?? null,
        after.status,
        after.currency,
        was,
        now,
        e.reason ?? null,
        e.actorId ?? null,
        ...guard.args,
      ),
  ];
  const totals = new Map<string, { status: string; currency: string; count: number; annual: number }>();
  for (const [f, sign] of [
    [before, -1],
    [after, 1],
  ] as const) {
    if (!f) continue;
    const k = `${f.currency}|${f.status}`;
    const t = totals.get(k) ?? { status: f.status, currency: f.currency, count: 0, annual: 0 };
    t.count += sign;
    t.annual += sign * f.annual;
    totals.set(k, t);
  }
  for (const t of totals.values()) {
    if (t.count === 0 && t.annual === 0) continue;
    stmts.push(
      db
        .prepare(
          `INSERT INTO plan_totals (organization_id, currency, status, plan_count, annual_minor)
           SELECT ?1, ?2, ?3, ?4, ?5 WHERE ${guard.sql(6)}
           ON CONFLICT (organization_id, currency, status) DO UPDATE SET
             plan_count = plan_count + excluded.plan_count, annual_minor = annual_minor + excluded.annual_minor`,
        )
        .bind(org, t.currency, t.status, t.count, t.annual, ...guard.args),
    );
  }
  const entering = was === 0 && now > 0;
  const leaving = was > 0 && now === 0;
  const counts = {
    created: entering && e.kind === "created" ? 1 : 0,
    reactivated: entering && e.kind !== "created" ? 1 : 0,
    cancelled: leaving && after.status === "cancelled" ? 1 : 0,
    lapsed: leaving && after.status === "lapsed" ? 1 : 0,
    paused: leaving && after.status === "paused" ? 1 : 0,
    completed: leaving && after.status === "completed" ? 1 : 0,
  };
  if (now !== was || Object.values(counts).some(Boolean)) {
    // The month's row counts only while the months are built in this zone (decision 013's rule for
    // days): a change computed in another zone drops the state and the next rebuild recounts.
    stmts.push(
      db
        .prepare(
          `INSERT INTO plan_monthly (organization_id, month, currency, new_count, reactivated_count, cancelled_count,
                                     lapsed_count, paused_count, completed_count, annual_delta)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10
            WHERE EXISTS (SELECT 1 FROM plan_rollup_state WHERE organization_id = ?1 AND time_zone = ?11) AND ${guard.sql(12)}
           ON CONFLICT (organization_id, month, currency) DO UPDATE SET
             new_count = new_count + excluded.new_count, reactivated_count = reactivated_count + excluded.reactivated_count,
             cancelled_count = cancelled_count + excluded.cancelled_count, lapsed_count = lapsed_count + excluded.lapsed_count,
             paused_count = paused_count + excluded.paused_count, completed_count = completed_count + excluded.completed_count,
             annual_delta = annual_delta + excluded.annual_delta`,
        )
        .bind(
          org,
          localMonth(e.at, timeZone),
          after.currency,
          counts.created,
          counts.reactivated,
          counts.cancelled,
          counts.lapsed,
          counts.paused,
          counts.completed,
          now - was,
          timeZone,
          ...guard.args,
        ),
      db
        .prepare(
          `DELETE FROM plan_rollup_state WHERE organization_id = ?1 AND time_zone != ?2 AND ${guard.sql(3)}`,
        )
        .bind(org, timeZone, ...guard.args),
    );
  }
  return stmts;
}

/** The plans' gift totals recounted from their counted gifts in the plan's currency, in the gift's batch
 * (decision 030). Derived figures, so the change token stays: a recount undoes no status decision. */
export function planStatsStatements(
  db: Database,
  planIds: readonly string[],
  guard: Guard,
): D1PreparedStatement[] {
  const ids = [...new Set(planIds.filter(Boolean))];
  if (!ids.length) return [];
  return [
    db
      .prepare(
        `UPDATE recurring_plan SET gift_count = s.n, given_minor = s.given, last_gift_at = s.last, updated_at = ?2
           FROM (SELECT j.value AS id, COUNT(d.id) AS n, COALESCE(SUM(d.amount_minor - d.refunded_minor), 0) AS given,
                        MAX(d.donated_at) AS last
                   FROM json_each(?1) j JOIN recurring_plan p ON p.id = j.value
                   LEFT JOIN donation d ON d.plan_id = p.id AND d.currency = p.currency AND ${COUNTED_SQL("d")}
                  GROUP BY j.value) AS s
          WHERE recurring_plan.id = s.id AND ${guard.sql(3)}`,
      )
      .bind(JSON.stringify(ids), Date.now(), ...guard.args),
  ];
}

const DAY_MS = 86_400_000;

/** Every plan rollup of one organization rebuilt in one batch; an event dated outside the zone's spans
 * meanwhile fails the state's NOT NULL and it tries again. org_daily's plan columns are the daily build's
 * (rollup-sql.ts `dailyRebuildSql`, decision 038). Returns whether it built. */
export async function rebuildPlanRollups(db: Database, organizationId: string, timeZone: string) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const range = await db
      .prepare("SELECT MIN(at) AS lo, MAX(at) AS hi FROM plan_event WHERE organization_id = ?1")
      .bind(organizationId)
      .first<{ lo: number | null; hi: number | null }>();
    const now = Date.now();
    const from = Math.max(DAY_KEY_FROM_MS, Math.min(range?.lo ?? now, now) - 2 * DAY_MS);
    const until = Math.min(DAY_KEY_UNTIL_MS, Math.max(range?.hi ?? now, now) + 400 * DAY_MS);
    const values = {
      org: organizationId,
      spans: JSON.stringify(dailySpans(from, until, timeZone)),
      tz: timeZone,
    };
    const statements = [
      db.prepare("DELETE FROM plan_totals WHERE organization_id = ?").bind(organizationId),
      db
        .prepare(
          `INSERT INTO plan_totals (organization_id, currency, status, plan_count, annual_minor)
           SELECT organization_id, currency, status, COUNT(*),
                  SUM(amount_minor * CASE interval WHEN 'month' THEN 12 WHEN 'quarter' THEN 4 ELSE 1 END)
             FROM recurring_plan WHERE organization_id = ? GROUP BY 1, 2, 3`,
        )
        .bind(organizationId),
      ...planMonthlyRebuildSql().map((s) => db.prepare(s.sql).bind(...s.args.map((a) => values[a]))),
    ];
    try {
      await db.batch(statements);
      return true;
    } catch (e) {
      if (!String(e).includes("NOT NULL")) throw e;
    }
  }
  return false;
}
