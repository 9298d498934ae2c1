/**
 * Recurring plans' rules (decision 030): plans entered by hand, core/plans.ts's status machine, a
 * manual plan's amount, the reads. Every change is ONE batch through worker/ledger/plan-change.ts,
 * conditional on the plan as read; processors' plans come through ./webhook.ts.
 */

import {
  allowedPlanActions,
  dueOnOrAfter,
  PLAN_REASON_ACTIONS,
  type PlanAction,
  type PlanInterval,
  pauseEndProblem,
  planAmountChangeProblem,
  planTransitions,
  PLAN_ACTION_TARGET as TARGET,
} from "@core/plans";
import { localDay, startOfLocalDay } from "@core/time";
import { type Database, orgDb } from "../db/databases";
import { campaignCurrency, liveDonorId } from "../donations/queries";
import { type PlanRow, writePlan } from "../ledger/plan-change";
import { auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import { generateId } from "../lib/ids";
import { withActorNames } from "../lib/user-names";
import type { OrgActor } from "../trpc/init";
import { presentPlan, presentPlanEvent } from "./present";
import {
  exportPlans,
  listPlans,
  type PLAN_SORTS,
  type PlanFilters,
  planById,
  planEvents,
  planGifts,
} from "./queries";

const CHANGED_MEANWHILE = "The plan changed meanwhile; reload and try again";

async function loadPlan(db: Database, orgId: string, id: string) {
  const row = await planById(db, orgId, id);
  if (!row) fail("NOT_FOUND", "Plan not found");
  return row;
}

/** The plan's columns without the list's joined names (what a write compares and sets). */
function planRowOf(p: PlanRow & Record<string, unknown>): PlanRow {
  const {
    donor_name: _n,
    donor_email: _e,
    campaign_title: _c,
    ...row
  } = p as PlanRow & {
    donor_name?: unknown;
    donor_email?: unknown;
    campaign_title?: unknown;
  };
  return row as PlanRow;
}

export async function listPlansPage(
  ctx: OrgActor,
  input: PlanFilters & { sort: keyof typeof PLAN_SORTS; desc: boolean; page: number; pageSize: number },
) {
  const res = await listPlans(orgDb(ctx), ctx.org.id, input);
  return { ...res, rows: res.rows.map(presentPlan) };
}

/** One plan with its last 100 gifts and its timeline (each change, who made it and why). */
export async function planDetail(ctx: OrgActor, id: string) {
  const db = orgDb(ctx);
  const p = await loadPlan(db, ctx.org.id, id);
  const [gifts, events] = await Promise.all([planGifts(db, p.id), planEvents(db, p.id)]);
  const named = await withActorNames(
    ctx.env,
    events.map((e) => ({ ...e, actorId: e.actor_id })),
  );
  return {
    ...presentPlan(p),
    gifts: gifts.map((g) => ({
      id: g.id,
      number: g.number,
      amountMinor: g.amount_minor,
      refundedMinor: g.refunded_minor,
      currency: g.currency,
      status: g.status,
      donatedAt: g.donated_at,
      mode: g.mode,
      trashed: g.trashed_at !== null,
    })),
    timeline: named.map((e) => presentPlanEvent(e)),
  };
}

interface NewPlanInput {
  donorId: string;
  campaignId: string | null;
  amountMinor: number;
  currency: string;
  interval: PlanInterval;
  /** The organization's day the first gift is due (YYYY-MM-DD). */
  startDay: string;
  /** The day of the month gifts are due; the start day's by default. */
  dayOfMonth?: number;
  paymentMethod?: string | null;
}

/** A plan entered by hand (a standing order, a pledge by check), its first gift due on the start day. */
export async function createPlan(ctx: OrgActor, input: NewPlanInput) {
  const db = orgDb(ctx);
  const [donor, c] = await Promise.all([
    liveDonorId(db, ctx.org.id, input.donorId),
    input.campaignId ? campaignCurrency(db, ctx.org.id, input.campaignId) : null,
  ]);
  if (!donor) fail("NOT_FOUND", "Donor not found", { field: "donorId" });
  if (donor.anonymized)
    fail("UNPROCESSABLE_CONTENT", "An anonymized donor cannot start a plan", { field: "donorId" });
  if (input.campaignId) {
    if (!c) fail("NOT_FOUND", "Campaign not found", { field: "campaignId" });
    if (c.currency !== input.currency)
      fail("BAD_REQUEST", `This campaign collects ${c.currency}`, { field: "currency" });
  }
  const now = Date.now();
  const startedAt = startOfLocalDay(input.startDay, ctx.org.timeZone) + 12 * 3600_000;
  const id = generateId();
  const row: PlanRow = {
    id,
    organization_id: ctx.org.id,
    donor_id: donor.id,
    campaign_id: input.campaignId,
    amount_minor: input.amountMinor,
    currency: input.currency,
    interval: input.interval,
    interval_day: input.dayOfMonth ?? Number(input.startDay.slice(8, 10)),
    status: "active",
    source: "manual",
    gateway: null,
    gateway_subscription_id: null,
    payment_method: input.paymentMethod ?? null,
    started_at: startedAt,
    next_expected_at: startedAt,
    ended_at: null,
    status_changed_at: now,
    gift_count: 0,
    given_minor: 0,
    last_gift_at: null,
    missed_count: 0,
    resume_at: null,
    change_token: null,
    created_by: ctx.user.id,
    created_at: now,
    updated_at: now,
  };
  await writePlan(db, ctx, {
    before: null,
    after: row,
    event: { kind: "created", at: Math.min(startedAt, now) },
    audit: { action: "plan.create", after: input },
  });
  return presentPlan(await loadPlan(db, ctx.org.id, id));
}

/**
 * Pause, resume or cancel, as core/plans.ts's status machine allows (a refusal names what it allows);
 * pausing and cancelling need a reason. A pause may end on a day within MAX_PAUSE_MONTHS (`resumeOn`),
 * when the watch (worker/plans/cron.ts) resumes it.
 */
export async function changePlanStatus(
  ctx: OrgActor,
  input: { id: string; action: PlanAction; reason?: string; resumeOn?: string },
) {
  const db = orgDb(ctx);
  const read = await loadPlan(db, ctx.org.id, input.id);
  const before = planRowOf(read);
  const target = TARGET[input.action];
  if (!planTransitions[before.status as keyof typeof planTransitions]?.includes(target))
    fail("UNPROCESSABLE_CONTENT", `A ${before.status.replace("_", " ")} plan cannot ${input.action}`, {
      allowed: allowedPlanActions(before.status as keyof typeof planTransitions),
    });
  const reason = input.reason?.trim() || null;
  if (PLAN_REASON_ACTIONS.includes(input.action) && !reason)
    fail("BAD_REQUEST", "Say why (the donor's timeline keeps it)", { field: "reason" });
  const now = Date.now();
  if (input.resumeOn !== undefined) {
    if (input.action !== "pause") fail("BAD_REQUEST", "Only a pause has an end", { field: "resumeOn" });
    const problem = pauseEndProblem(input.resumeOn, localDay(now, ctx.org.timeZone));
    if (problem) fail("BAD_REQUEST", problem, { field: "resumeOn" });
  }
  const after: PlanRow =
    input.action === "resume"
      ? resumedPlan(before, ctx.org.timeZone, now)
      : { ...before, status: target, status_changed_at: now, updated_at: now, resume_at: null };
  if (target === "cancelled") {
    after.ended_at = now;
    after.next_expected_at = null;
  }
  if (input.resumeOn) after.resume_at = startOfLocalDay(input.resumeOn, ctx.org.timeZone);
  const landed = await writePlan(db, ctx, {
    before,
    after,
    event: {
      kind: "status",
      at: now,
      reason: input.resumeOn ? `${reason} (until ${input.resumeOn})` : reason,
    },
    audit: {
      action: `plan.${input.action}`,
      before: { status: before.status },
      after: input.resumeOn ? { status: target, resumeOn: input.resumeOn } : { status: target },
      reason,
    },
  });
  if (!landed) fail("CONFLICT", CHANGED_MEANWHILE);
  return presentPlan(await loadPlan(db, ctx.org.id, before.id));
}

/**
 * A paused plan active again at `now`: by hand, or when its pause ends (the watch). Its next gift
 * is due on the first due date of its schedule from today; its missed gifts start from none.
 */
export function resumedPlan(before: PlanRow, timeZone: string, now: number): PlanRow {
  const today = startOfLocalDay(localDay(now, timeZone), timeZone);
  return {
    ...before,
    status: "active",
    status_changed_at: now,
    updated_at: now,
    resume_at: null,
    next_expected_at: dueOnOrAfter(
      before.next_expected_at ?? before.started_at,
      before.interval as PlanInterval,
      before.interval_day,
      timeZone,
      today,
    ),
    missed_count: 0,
  };
}

/** A plan entered by hand changes amount here (a processor's plan changes at the processor). */
export async function changePlanAmount(
  ctx: OrgActor,
  input: { id: string; amountMinor: number; reason?: string },
) {
  const db = orgDb(ctx);
  const before = planRowOf(await loadPlan(db, ctx.org.id, input.id));
  if (before.source !== "manual")
    fail("UNPROCESSABLE_CONTENT", "This plan's amount changes at its payment processor", {
      field: "amountMinor",
    });
  const ended = planAmountChangeProblem(before.status);
  if (ended) fail("UNPROCESSABLE_CONTENT", ended, { field: "amountMinor" });
  if (input.amountMinor === before.amount_minor)
    return presentPlan(await loadPlan(db, ctx.org.id, before.id));
  const now = Date.now();
  const landed = await writePlan(db, ctx, {
    before,
    after: { ...before, amount_minor: input.amountMinor, updated_at: now },
    event: { kind: "amount", at: now, reason: input.reason?.trim() || null },
    audit: {
      action: "plan.amount",
      before: { amountMinor: before.amount_minor },
      after: { amountMinor: input.amountMinor },
      reason: input.reason?.trim() || null,
    },
  });
  if (!landed) fail("CONFLICT", CHANGED_MEANWHILE);
  return presentPlan(await loadPlan(db, ctx.org.id, before.id));
}

/**
 * The plans the list's filters match, a page at a time in id order, for the CSV the portal builds
 * (as donors.exportPage): audited once, on the first page, as every export is.
 */
export async function exportPlansPage(ctx: OrgActor, input: PlanFilters & { after?: string; limit: number }) {
  const db = orgDb(ctx);
  const { after, limit, ...filters } = input;
  const rows = await exportPlans(db, ctx.org.id, filters, after ?? null, limit);
  if (!after)
    await auditStatement(ctx, {
      action: "plan.export",
      entityType: "plan",
      entityId: "export",
      after: filters,
    }).run();
  return { rows: rows.map(presentPlan), next: rows.length === limit ? (rows.at(-1)?.id ?? null) : null };
}
