/** The plans' reads and list; a plan's own writes are worker/ledger/plan-change.ts's. */
import type { Database } from "../db/databases";
import { donorTextMatch } from "../donors/queries";
import type { PlanRow } from "../ledger/plan-change";
import { add, addIn, runList, type Where, where } from "../lib/list";

/** A plan with its donor's and campaign's names (`SELECT ${SELECT} FROM ${FROM}`). */
export type PlanListRow = PlanRow & {
  donor_name: string | null;
  donor_email: string | null;
  campaign_title: string | null;
};

const SELECT = `p.*, CASE WHEN dn.anonymized_at IS NOT NULL THEN 'Anonymized' ELSE COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, dn.email) END AS donor_name,
  dn.email AS donor_email, c.title AS campaign_title`;
const FROM =
  "recurring_plan p LEFT JOIN donor dn ON dn.id = p.donor_id LEFT JOIN campaign c ON c.id = p.campaign_id";

/** Failing first: past due, lapsed, then the rest; within each, the gift due soonest. */
const RISK_ORDER = `CASE p.status WHEN 'past_due' THEN 0 WHEN 'lapsed' THEN 1 WHEN 'active' THEN 2 WHEN 'paused' THEN 3 ELSE 4 END`;

/**
 * Each sort is its index's expression list (drizzle/0017: recurring_plan_org_*_idx), so a page reads
 * in index order instead of sorting every plan; plans without a next gift (ended) come last.
 */
export const PLAN_SORTS = {
  risk: `${RISK_ORDER}, (p.next_expected_at IS NULL), p.next_expected_at`,
  next: "(p.next_expected_at IS NULL), p.next_expected_at",
  amount: "p.amount_minor",
  created: "p.created_at",
  given: "p.given_minor",
} as const;

export interface PlanFilters {
  status?: string[];
  interval?: string;
  campaignId?: string;
  donorId?: string;
  currency?: string;
  minAmountMinor?: number;
  maxAmountMinor?: number;
  q?: string;
}

function planWhere(orgId: string, f: PlanFilters): Where {
  const w = where();
  // The unary plus keeps an index from being chosen for that term (sqlite.org/optoverview.html,
  // "Disqualifying WHERE clause terms"). A donor's or campaign's plans are read through its own
  // index; the organization's through the sort's index, with the status checked in it rather than
  // through recurring_plan_org_status_next_idx followed by a sort of every match.
  const narrow = f.donorId !== undefined || f.campaignId !== undefined;
  add(w, narrow ? "+p.organization_id = ?" : "p.organization_id = ?", orgId);
  addIn(w, "+p.status", f.status);
  if (f.interval) add(w, "p.interval = ?", f.interval);
  if (f.campaignId) add(w, "p.campaign_id = ?", f.campaignId);
  if (f.donorId) add(w, "p.donor_id = ?", f.donorId);
  if (f.currency) add(w, "p.currency = ?", f.currency);
  if (f.minAmountMinor !== undefined) add(w, "p.amount_minor >= ?", f.minAmountMinor);
  if (f.maxAmountMinor !== undefined) add(w, "p.amount_minor <= ?", f.maxAmountMinor);
  if (f.q) {
    // The donor as the donors list finds it, or the processor's subscription id.
    const m = donorTextMatch("dn", f.q);
    add(w, `(${m.sql} OR p.gateway_subscription_id = ?)`, ...m.params, f.q);
  }
  return w;
}

export function listPlans(
  db: Database,
  orgId: string,
  f: PlanFilters & { sort: keyof typeof PLAN_SORTS; desc: boolean; page: number; pageSize: number },
) {
  // "Failing first" reads best ascending whatever the direction asked; the others follow `desc`.
  const risk = f.sort === "risk";
  return runList<PlanListRow>(db, {
    select: SELECT,
    from: FROM,
    where: planWhere(orgId, f),
    orderBy: PLAN_SORTS[f.sort],
    desc: risk ? false : f.desc,
    // Only the search needs the donor's name; the count reads the plans' own index without it.
    countFrom: f.q ? undefined : "recurring_plan p",
    page: f.page,
    pageSize: f.pageSize,
    tiebreak: "p.id",
  });
}

export function planById(db: Database, orgId: string, id: string) {
  return db
    .prepare(`SELECT ${SELECT} FROM ${FROM} WHERE p.organization_id = ? AND p.id = ?`)
    .bind(orgId, id)
    .first<PlanListRow>();
}

/** The plan's own row (what a write compares and sets). */
export function planBySubscription(db: Database, orgId: string, subscriptionId: string) {
  return db
    .prepare("SELECT * FROM recurring_plan WHERE organization_id = ? AND gateway_subscription_id = ?")
    .bind(orgId, subscriptionId)
    .first<PlanRow>();
}

/** The plan's gifts, newest first (the plan page shows the last 100; the totals count them all). */
export async function planGifts(db: Database, planId: string) {
  const { results } = await db
    .prepare(
      `SELECT id, number, amount_minor, refunded_minor, currency, status, donated_at, mode, trashed_at
         FROM donation WHERE plan_id = ? ORDER BY donated_at DESC, id DESC LIMIT 100`,
    )
    .bind(planId)
    .all<{
      id: string;
      number: number;
      amount_minor: number;
      refunded_minor: number;
      currency: string;
      status: string;
      donated_at: number;
      mode: string;
      trashed_at: number | null;
    }>();
  return results;
}

export type PlanEventRow = {
  id: string;
  at: number;
  kind: string;
  from_status: string | null;
  to_status: string;
  currency: string;
  annual_before: number;
  annual_after: number;
  reason: string | null;
  actor_id: string | null;
};

/** A plan's events, oldest first (its timeline). */
export async function planEvents(db: Database, planId: string) {
  const { results } = await db
    .prepare("SELECT * FROM plan_event WHERE plan_id = ? ORDER BY at, rowid LIMIT 500")
    .bind(planId)
    .all<PlanEventRow>();
  return results;
}

/** One page of the filtered plans in creation order after `after` (the export's keyset). */
export async function exportPlans(
  db: Database,
  orgId: string,
  f: PlanFilters,
  after: string | null,
  limit: number,
) {
  const w = planWhere(orgId, f);
  if (after) add(w, "p.id > ?", after);
  const { results } = await db
    .prepare(`SELECT ${SELECT} FROM ${FROM} WHERE ${w.sql.join(" AND ")} ORDER BY p.id LIMIT ?`)
    .bind(...w.params, limit)
    .all<PlanListRow>();
  return results;
}
