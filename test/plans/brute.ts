/**
 * Brute-force recounts of what the plan writes maintain (issue 24, decision 030), straight from the
 * plans, their events and their gifts, for the plan suites to compare with the rollups.
 */
import { localDay } from "@core/time";
import { expect } from "vitest";
import { testEnv } from "../helpers";

const db = () => testEnv.DB;
const YEAR: Record<string, number> = { month: 12, quarter: 4, year: 1 };
const COUNTING = new Set(["active", "past_due"]);

interface Plan {
  id: string;
  currency: string;
  status: string;
  amount_minor: number;
  interval: string;
  gift_count: number;
  given_minor: number;
  last_gift_at: number | null;
}

export async function plansOf(org: string) {
  const { results } = await db()
    .prepare("SELECT * FROM recurring_plan WHERE organization_id = ?")
    .bind(org)
    .all<Plan>();
  return results;
}

/** plan_totals as the plans say it: "currency|status" → [plans, yearly amount]. */
export async function brutePlanTotals(org: string) {
  const out: Record<string, [number, number]> = {};
  for (const p of await plansOf(org)) {
    const k = `${p.currency}|${p.status}`;
    const cur = out[k] ?? [0, 0];
    cur[0] += 1;
    cur[1] += p.amount_minor * (YEAR[p.interval] ?? 0);
    out[k] = cur;
  }
  return out;
}

export async function storedPlanTotals(org: string) {
  const { results } = await db()
    .prepare(
      "SELECT currency, status, plan_count, annual_minor FROM plan_totals WHERE organization_id = ? AND (plan_count != 0 OR annual_minor != 0)",
    )
    .bind(org)
    .all<{ currency: string; status: string; plan_count: number; annual_minor: number }>();
  return Object.fromEntries(
    results.map((r) => [`${r.currency}|${r.status}`, [r.plan_count, r.annual_minor]]),
  );
}

/**
 * plan_monthly as the events say it, each in the organization's month: "month|currency" → [new,
 * reactivated, cancelled, lapsed, paused, completed, yearly amount change]. Written apart from the
 * server's own counting (worker/plans/analytics.ts monthsFromEvents), from the definition.
 */
export async function brutePlanMonthly(org: string, timeZone: string) {
  const { results } = await db()
    .prepare(
      "SELECT at, kind, from_status, to_status, currency, annual_before, annual_after FROM plan_event WHERE organization_id = ?",
    )
    .bind(org)
    .all<{
      at: number;
      kind: string;
      from_status: string | null;
      to_status: string;
      currency: string;
      annual_before: number;
      annual_after: number;
    }>();
  const out: Record<string, number[]> = {};
  for (const e of results) {
    const k = `${localDay(e.at, timeZone).slice(0, 7)}|${e.currency}`;
    const cur = out[k] ?? [0, 0, 0, 0, 0, 0, 0];
    const bump = (i: number, by = 1) => {
      cur[i] = (cur[i] ?? 0) + by;
    };
    const counted = (s: string | null) => !!s && COUNTING.has(s);
    const wasIn = e.kind !== "created" && counted(e.from_status);
    const isIn = counted(e.to_status);
    if (!wasIn && isIn) bump(e.kind === "created" ? 0 : 1);
    if (wasIn && !isIn) bump(["cancelled", "lapsed", "paused", "completed"].indexOf(e.to_status) + 2);
    bump(6, e.annual_after - e.annual_before);
    out[k] = cur;
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v.some((x) => x !== 0)));
}

export async function storedPlanMonthly(org: string) {
  const { results } = await db()
    .prepare("SELECT * FROM plan_monthly WHERE organization_id = ?")
    .bind(org)
    .all<{
      month: string;
      currency: string;
      new_count: number;
      reactivated_count: number;
      cancelled_count: number;
      lapsed_count: number;
      paused_count: number;
      completed_count: number;
      annual_delta: number;
    }>();
  return Object.fromEntries(
    results
      .map(
        (r) =>
          [
            `${r.month}|${r.currency}`,
            [
              r.new_count,
              r.reactivated_count,
              r.cancelled_count,
              r.lapsed_count,
              r.paused_count,
              r.completed_count,
              r.annual_delta,
            ],
          ] as const,
      )
      .filter(([, v]) => v.some((x) => x !== 0)),
  );
}

/** A plan's gift totals from its counted gifts in its currency. */
export async function brutePlanStats(planId: string) {
  const r = await db()
    .prepare(
      `SELECT COUNT(*) AS n, COALESCE(SUM(amount_minor - refunded_minor), 0) AS given, MAX(donated_at) AS last FROM donation
        WHERE plan_id = ?1 AND status IN ('completed','partially_refunded') AND mode = 'live' AND trashed_at IS NULL
          AND currency = (SELECT currency FROM recurring_plan WHERE id = ?1)`,
    )
    .bind(planId)
    .first<{ n: number; given: number; last: number | null }>();
  return { gift_count: r?.n ?? 0, given_minor: r?.given ?? 0, last_gift_at: r?.last ?? null };
}

/** Every plan figure equal to its recount: totals, months (built in `timeZone`), each plan's gifts. */
export async function expectPlanRecount(org: string, timeZone: string, label: string) {
  expect(await storedPlanTotals(org), `${label}: plan_totals`).toEqual(await brutePlanTotals(org));
  const state = await db()
    .prepare("SELECT time_zone FROM plan_rollup_state WHERE organization_id = ?")
    .bind(org)
    .first<{ time_zone: string }>();
  expect(state?.time_zone, `${label}: plan months built`).toBe(timeZone);
  expect(await storedPlanMonthly(org), `${label}: plan_monthly`).toEqual(
    await brutePlanMonthly(org, timeZone),
  );
  for (const p of await plansOf(org))
    expect(
      { gift_count: p.gift_count, given_minor: p.given_minor, last_gift_at: p.last_gift_at },
      `${label}: plan ${p.id}`,
    ).toEqual(await brutePlanStats(p.id));
}
