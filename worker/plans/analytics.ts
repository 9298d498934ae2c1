/**
 * Recurring revenue (decision 030) from the plan rollups: MRR, churn, new and ended plans, the share
 * of revenue given through plans, the plans at risk. Months not yet built in the organization's zone
 * are counted from plan_event instead, the same figures more slowly, until the cron builds them.
 */
import { IN_MRR, inMrr, localMonth, monthlyFromAnnual } from "@core/plans";
import { addDays, localDay } from "@core/time";
import { orgDb } from "../db/databases";
import type { OrgReader } from "../trpc/init";
import { presentPlan } from "./present";
import type { PlanListRow } from "./queries";

interface MonthRow {
  month: string;
  currency: string;
  new_count: number;
  reactivated_count: number;
  cancelled_count: number;
  lapsed_count: number;
  paused_count: number;
  completed_count: number;
  annual_delta: number;
}

/** plan_monthly's rows counted from the events (the rollups' definition, core/plans.ts IN_MRR). */
export function monthsFromEvents(
  events: readonly {
    at: number;
    kind: string;
    to_status: string;
    currency: string;
    annual_before: number;
    annual_after: number;
  }[],
  timeZone: string,
): MonthRow[] {
  const out = new Map<string, MonthRow>();
  for (const e of events) {
    const month = localMonth(e.at, timeZone);
    const k = `${month}|${e.currency}`;
    const r = out.get(k) ?? {
      month,
      currency: e.currency,
      new_count: 0,
      reactivated_count: 0,
      cancelled_count: 0,
      lapsed_count: 0,
      paused_count: 0,
      completed_count: 0,
      annual_delta: 0,
    };
    const entering = e.annual_before === 0 && e.annual_after > 0;
    const leaving = e.annual_before > 0 && e.annual_after === 0;
    if (entering && e.kind === "created") r.new_count++;
    else if (entering) r.reactivated_count++;
    if (leaving && e.to_status === "cancelled") r.cancelled_count++;
    if (leaving && e.to_status === "lapsed") r.lapsed_count++;
    if (leaving && e.to_status === "paused") r.paused_count++;
    if (leaving && e.to_status === "completed") r.completed_count++;
    r.annual_delta += e.annual_after - e.annual_before;
    out.set(k, r);
  }
  return [...out.values()].filter(
    (r) =>
      r.new_count ||
      r.reactivated_count ||
      r.cancelled_count ||
      r.lapsed_count ||
      r.paused_count ||
      r.completed_count ||
      r.annual_delta,
  );
}

/** The last `months` months of the organization, oldest first, ending with the current one. */
function lastMonths(now: number, timeZone: string, months: number): string[] {
  const [y, m] = localDay(now, timeZone).split("-").map(Number) as [number, number];
  const out: string[] = [];
  for (let i = months - 1; i >= 0; i--) {
    const t = y * 12 + (m - 1) - i;
    out.push(`${String(Math.floor(t / 12)).padStart(4, "0")}-${String((t % 12) + 1).padStart(2, "0")}`);
  }
  return out;
}

export async function recurringSummary(ctx: OrgReader, input: { months: number; days: number }) {
  const db = orgDb(ctx);
  const org = ctx.org.id;
  const tz = ctx.org.timeZone;
  const now = Date.now();
  const today = localDay(now, tz);
  const since = input.days > 0 ? addDays(today, 1 - input.days) : "0000-00-00";
  const [totals, state, monthly, share, risk] = await db.batch([
    db
      .prepare("SELECT currency, status, plan_count, annual_minor FROM plan_totals WHERE organization_id = ?")
      .bind(org),
    db.prepare("SELECT time_zone FROM plan_rollup_state WHERE organization_id = ?").bind(org),
    db.prepare("SELECT * FROM plan_monthly WHERE organization_id = ? ORDER BY month").bind(org),
    db
      .prepare(
        `SELECT currency, SUM(raised_minor) AS raised, SUM(plan_raised_minor) AS plan_raised
           FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND day >= ? AND day <= ? GROUP BY currency`,
      )
      .bind(org, since, today),
    db
      .prepare(
        `SELECT p.*, CASE WHEN dn.anonymized_at IS NOT NULL THEN 'Anonymized' ELSE COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, dn.email) END AS donor_name,
                dn.email AS donor_email, c.title AS campaign_title
           FROM recurring_plan p LEFT JOIN donor dn ON dn.id = p.donor_id LEFT JOIN campaign c ON c.id = p.campaign_id
          WHERE p.organization_id = ? AND p.status = 'past_due' ORDER BY p.next_expected_at LIMIT 10`,
      )
      .bind(org),
  ]);
  const built = (state?.results[0] as { time_zone: string } | undefined)?.time_zone === tz;
  let rows = (monthly?.results ?? []) as MonthRow[];
  if (!built) {
    const { results } = await db
      .prepare(
        "SELECT at, kind, to_status, currency, annual_before, annual_after FROM plan_event WHERE organization_id = ?",
      )
      .bind(org)
      .all<{
        at: number;
        kind: string;
        to_status: string;
        currency: string;
        annual_before: number;
        annual_after: number;
      }>();
    rows = monthsFromEvents(results, tz).sort((a, b) => (a.month < b.month ? -1 : 1));
  }
  const byCurrency = new Map<string, { mrrAnnual: number; active: number; pastDue: number; all: number }>();
  for (const t of (totals?.results ?? []) as {
    currency: string;
    status: string;
    plan_count: number;
    annual_minor: number;
  }[]) {
    const c = byCurrency.get(t.currency) ?? { mrrAnnual: 0, active: 0, pastDue: 0, all: 0 };
    if (inMrr(t.status)) {
      c.mrrAnnual += t.annual_minor;
      c.active += t.plan_count;
    }
    if (t.status === "past_due") c.pastDue += t.plan_count;
    c.all += t.plan_count;
    byCurrency.set(t.currency, c);
  }
  const window = lastMonths(now, tz, input.months);
  const currencies = [...new Set([...byCurrency.keys(), ...rows.map((r) => r.currency)])].sort();
  const net = (r: MonthRow) =>
    r.new_count +
    r.reactivated_count -
    r.cancelled_count -
    r.lapsed_count -
    r.paused_count -
    r.completed_count;
  const series = currencies.map((currency) => {
    const mine = rows.filter((r) => r.currency === currency);
    // Plans counting and their yearly amount when the window opens: everything before it.
    let active = 0;
    let annual = 0;
    for (const r of mine)
      if (r.month < (window[0] as string)) {
        active += net(r);
        annual += r.annual_delta;
      }
    const months = window.map((month) => {
      const r = mine.find((x) => x.month === month);
      const atStart = active;
      const ended = r ? r.cancelled_count + r.lapsed_count : 0;
      if (r) {
        active += net(r);
        annual += r.annual_delta;
      }
      return {
        month,
        new: r?.new_count ?? 0,
        reactivated: r?.reactivated_count ?? 0,
        cancelled: r?.cancelled_count ?? 0,
        lapsed: r?.lapsed_count ?? 0,
        paused: r?.paused_count ?? 0,
        completed: r?.completed_count ?? 0,
        activeAtStart: atStart,
        /** Cancelled and lapsed plans over the plans counting at the month's start (null without any). */
        churnRate: atStart > 0 ? ended / atStart : null,
        mrrEndMinor: monthlyFromAnnual(annual),
      };
    });
    return { currency, months };
  });
  const shares = new Map(
    ((share?.results ?? []) as { currency: string; raised: number; plan_raised: number }[]).map((s) => [
      s.currency,
      s,
    ]),
  );
  return {
    exact: built,
    inMrr: IN_MRR,
    currencies: currencies.map((currency) => {
      const c = byCurrency.get(currency) ?? { mrrAnnual: 0, active: 0, pastDue: 0, all: 0 };
      const s = shares.get(currency);
      return {
        currency,
        mrrMinor: monthlyFromAnnual(c.mrrAnnual),
        activePlans: c.active,
        pastDuePlans: c.pastDue,
        averageMonthlyMinor: c.active ? monthlyFromAnnual(c.mrrAnnual / c.active) : 0,
        periodRaisedMinor: s?.raised ?? 0,
        periodPlanRaisedMinor: s?.plan_raised ?? 0,
        /** The period's revenue given through plans, 0–1 (null without revenue). */
        planShare: s?.raised ? s.plan_raised / s.raised : null,
      };
    }),
    series,
    atRisk: ((risk?.results ?? []) as PlanListRow[]).map(presentPlan),
  };
}
