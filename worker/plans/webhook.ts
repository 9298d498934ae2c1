/**
 * A processor's events about recurring plans (decision 030), in the gifts' signed webhook
 * (worker/http/webhook.ts). The subscription id makes them idempotent: a plan is created once, and an
 * event whose state the plan has already changes nothing. A subscription's gifts find their plan
 * through `planForGift`, which creates it when first seen.
 */
import { PAYMENT_METHOD_MAX } from "@core/labels";
import { toMinor } from "@core/money";
import {
  FREQUENCY_OF,
  intervalOfFrequency,
  nextDue,
  type PlanInterval,
  type PlanStatus,
  planAmountChangeProblem,
  planGiftCurrencyProblem,
  planIntervals,
  planTransitions,
} from "@core/plans";
import { currencyCode, instantProblem, MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR } from "@core/schemas";
import { localDay } from "@core/time";
import { z } from "zod";
import { type Database, directoryDatabase, organizationDatabase } from "../db/databases";
import { campaignBySlug, donorIdByEmail, insertDonorIfNew, organizationBySlug } from "../donations/queries";
import type { EventAnswer } from "../donations/webhook";
import { type PlanActor, type PlanRow, planChangeBatch, writePlan } from "../ledger/plan-change";
import { giftJoinsPlan } from "../ledger/plan-gift";
import type { AuditAction } from "../lib/audit";
import { generateId } from "../lib/ids";
import { planBySubscription } from "./queries";

const decimal = z
  .string()
  .max(40)
  .regex(/^\d+(\.\d+)?$/);

const planEventTypes = [
  "plan.created",
  "plan.updated",
  "plan.paused",
  "plan.resumed",
  "plan.cancelled",
  "plan.payment_failed",
] as const;

export const planEvent = z.object({
  id: z.string().min(1).max(100),
  type: z.enum(planEventTypes),
  data: z.object({
    organization: z.string().min(1),
    subscriptionId: z.string().min(1).max(200),
    amount: decimal.optional(),
    currency: z.string().max(10).optional(),
    interval: z.enum(planIntervals).optional(),
    intervalDay: z.number().int().min(1).max(31).optional(),
    /** When the plan started (plan.created) or when the event happened (the rest); now by default. */
    startedAt: z.iso.datetime().optional(),
    at: z.iso.datetime().optional(),
    campaignSlug: z.string().max(100).optional(),
    gateway: z.string().max(40).default("processor"),
    paymentMethod: z.string().max(PAYMENT_METHOD_MAX).optional(),
    reason: z.string().max(500).optional(),
    donor: z
      .object({
        email: z.email(),
        firstName: z.string().max(100).optional(),
        lastName: z.string().max(100).optional(),
      })
      .optional(),
  }),
});
export type PlanEvent = z.infer<typeof planEvent>;

const answer = (body: Record<string, unknown>, status = 200): EventAnswer => ({ status, body });
const refuse = (message: string) => answer({ code: "UNPROCESSABLE_CONTENT", message }, 422);

const TARGET: Partial<Record<PlanEvent["type"], PlanStatus>> = {
  "plan.paused": "paused",
  "plan.resumed": "active",
  "plan.cancelled": "cancelled",
  "plan.payment_failed": "past_due",
};

/** Each status event's audit action (worker/users/audit/sentences.ts says them in words). */
const ACTION = {
  "plan.paused": "plan.webhook_paused",
  "plan.resumed": "plan.webhook_resumed",
  "plan.cancelled": "plan.webhook_cancelled",
  "plan.payment_failed": "plan.webhook_payment_failed",
} as const satisfies Partial<Record<PlanEvent["type"], AuditAction>>;

/** The amount in minor units within the platform's bounds, or the refusal. */
function amountOf(amount: string, currency: string): number | EventAnswer {
  let minor: number;
  try {
    minor = toMinor(amount, currency);
  } catch {
    return answer({ code: "BAD_REQUEST", message: "Invalid amount for the currency" }, 400);
  }
  if (minor < MIN_AMOUNT_MINOR || minor > MAX_AMOUNT_MINOR)
    return refuse("The amount is outside the platform's bounds");
  return minor;
}

/** Stores one plan event: the plan created or changed, or the refusal. */
export async function receivePlanEvent(env: Env, parsed: PlanEvent): Promise<EventAnswer> {
  const d = parsed.data;
  // Dates a plan stores, bounded as a gift's are (decision 019): a year before 1000 has no
  // four-digit day, and its day of the month and month bucket would fail the batch.
  for (const [field, value] of [
    ["startedAt", d.startedAt],
    ["at", d.at],
  ] as const) {
    const problem = value === undefined ? null : instantProblem(Date.parse(value));
    if (problem) return refuse(`${field}: ${problem}`);
  }
  const org = await organizationBySlug(directoryDatabase(env), d.organization);
  if (!org) return answer({ code: "NOT_FOUND", message: "Organization not found" }, 404);
  const db = organizationDatabase(env, org.id);
  const actor: PlanActor = { env, user: null, org: { id: org.id, timeZone: org.time_zone } };
  const reason = `webhook event ${parsed.id}${d.reason ? `: ${d.reason}` : ""}`;
  const at = Math.min(d.at ? Date.parse(d.at) : Date.now(), Date.now());
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await planBySubscription(db, org.id, d.subscriptionId);
    if (parsed.type === "plan.created") {
      if (existing) return answer({ received: true, duplicate: true, id: existing.id });
      if (!d.amount || !d.currency || !d.interval)
        return refuse("plan.created needs amount, currency and interval");
      const cur = currencyCode.safeParse(d.currency);
      if (!cur.success) return refuse(cur.error.issues[0]?.message ?? "Unsupported currency");
      const minor = amountOf(d.amount, cur.data);
      if (typeof minor !== "number") return minor;
      const campaign = d.campaignSlug ? await campaignBySlug(db, org.id, d.campaignSlug) : null;
      if (d.campaignSlug && !campaign)
        return answer({ code: "NOT_FOUND", message: "Campaign not found" }, 404);
      if (campaign && campaign.currency !== cur.data)
        return answer({ code: "BAD_REQUEST", message: `This campaign collects ${campaign.currency}` }, 400);
      const startedAt = d.startedAt ? Date.parse(d.startedAt) : at;
      const donor = await donorFor(db, org.id, d.donor);
      const row = newPlanRow({
        organizationId: org.id,
        donorId: donor.id,
        campaignId: campaign?.id ?? null,
        amountMinor: minor,
        currency: cur.data,
        interval: d.interval,
        intervalDay: d.intervalDay ?? Number(localDay(startedAt, org.time_zone).slice(8, 10)),
        startedAt,
        nextExpectedAt:
          startedAt > Date.now()
            ? startedAt
            : nextDue(
                startedAt,
                d.interval,
                d.intervalDay ?? Number(localDay(startedAt, org.time_zone).slice(8, 10)),
                org.time_zone,
              ),
        gateway: d.gateway,
        subscriptionId: d.subscriptionId,
        paymentMethod: d.paymentMethod ?? null,
      });
      const batch = planChangeBatch(db, actor, {
        before: null,
        after: row,
        event: { kind: "created", at: Math.min(startedAt, Date.now()) },
        audit: { action: "plan.webhook_create", after: { subscriptionId: d.subscriptionId }, reason },
        ignoreDuplicate: true,
      });
      try {
        const res = await db.batch([...donor.prelude, ...batch.statements]);
        if (res[donor.prelude.length]?.meta.changes)
          return answer({ received: true, id: row.id, duplicate: false }, 201);
      } catch (e) {
        // A donor another delivery created meanwhile under another id: plan again from a fresh read.
        if (attempt === 2) throw e;
      }
      continue;
    }
    if (!existing) return answer({ code: "NOT_FOUND", message: "Plan not found" }, 404);
    const now = Date.now();
    if (parsed.type === "plan.updated") {
      const after: PlanRow = { ...existing, updated_at: now };
      if (d.currency && d.currency.toUpperCase() !== existing.currency)
        return refuse("A plan's currency does not change; cancel it and create another");
      if (d.amount) {
        const minor = amountOf(d.amount, existing.currency);
        if (typeof minor !== "number") return minor;
        after.amount_minor = minor;
      }
      if (d.interval) after.interval = d.interval;
      if (d.intervalDay) after.interval_day = d.intervalDay;
      if (d.paymentMethod) after.payment_method = d.paymentMethod;
      const same = (["amount_minor", "interval", "interval_day", "payment_method"] as const).every(
        (k) => after[k] === existing[k],
      );
      if (same) return answer({ received: true, duplicate: true, id: existing.id });
      // The interval is part of the amount a plan gives (its recurring revenue), as plans.changeAmount's.
      const ended =
        after.amount_minor !== existing.amount_minor || after.interval !== existing.interval
          ? planAmountChangeProblem(existing.status)
          : null;
      if (ended) return refuse(ended);
      const landed = await writePlan(db, actor, {
        before: existing,
        after,
        event: { kind: "amount", at, reason },
        audit: {
          action: "plan.webhook_update",
          before: { amountMinor: existing.amount_minor, interval: existing.interval },
          after: { amountMinor: after.amount_minor, interval: after.interval },
          reason,
        },
      });
      if (landed) return answer({ received: true, id: existing.id, changed: true });
      continue;
    }
    const target = TARGET[parsed.type] as PlanStatus;
    // A failing plan that fails again, or a plan already where the event takes it: nothing to do.
    if (existing.status === target || (target === "past_due" && existing.status === "lapsed"))
      return answer({ received: true, duplicate: true, id: existing.id });
    if (!planTransitions[existing.status as PlanStatus].includes(target))
      return answer(
        {
          code: "UNPROCESSABLE_CONTENT",
          message: `Cannot move a ${existing.status.replace("_", " ")} plan to ${target.replace("_", " ")}`,
          allowed: planTransitions[existing.status as PlanStatus],
        },
        422,
      );
    const after: PlanRow = { ...existing, status: target, status_changed_at: now, updated_at: now };
    if (target === "cancelled") {
      after.ended_at = at;
      after.next_expected_at = null;
    }
    if (target === "active" && existing.next_expected_at !== null && existing.next_expected_at < now) {
      after.next_expected_at = nextDue(
        now,
        existing.interval as PlanInterval,
        existing.interval_day,
        org.time_zone,
      );
      after.missed_count = 0;
    }
    const landed = await writePlan(db, actor, {
      before: existing,
      after,
      event: { kind: "status", at, reason },
      audit: {
        action: ACTION[parsed.type as keyof typeof ACTION],
        before: { status: existing.status },
        after: { status: target },
        reason,
      },
    });
    if (landed) return answer({ received: true, id: existing.id, changed: true });
  }
  return answer({ code: "CONFLICT", message: "The plan changed meanwhile; deliver the event again" }, 409);
}

/** The donor a processor names by e-mail: known, or inserted by the prelude (one batch with the plan). */
async function donorFor(
  db: Database,
  orgId: string,
  donor: PlanEvent["data"]["donor"],
): Promise<{ id: string | null; prelude: D1PreparedStatement[] }> {
  if (!donor) return { id: null, prelude: [] };
  const email = donor.email.toLowerCase();
  const known = await donorIdByEmail(db, orgId, email);
  if (known) return { id: known.id, prelude: [] };
  const id = generateId();
  return {
    id,
    prelude: [
      insertDonorIfNew(db, {
        id,
        orgId,
        firstName: donor.firstName ?? null,
        lastName: donor.lastName ?? (donor.firstName ? null : email),
        email,
        now: Date.now(),
      }),
    ],
  };
}

function newPlanRow(p: {
  organizationId: string;
  donorId: string | null;
  campaignId: string | null;
  amountMinor: number;
  currency: string;
  interval: PlanInterval;
  intervalDay: number;
  startedAt: number;
  nextExpectedAt: number;
  gateway: string | null;
  subscriptionId: string | null;
  paymentMethod: string | null;
  source?: PlanRow["source"];
}): PlanRow {
  const now = Date.now();
  return {
    id: generateId(),
    organization_id: p.organizationId,
    donor_id: p.donorId,
    campaign_id: p.campaignId,
    amount_minor: p.amountMinor,
    currency: p.currency,
    interval: p.interval,
    interval_day: p.intervalDay,
    status: "active",
    source: p.source ?? "webhook",
    gateway: p.gateway,
    gateway_subscription_id: p.subscriptionId,
    payment_method: p.paymentMethod,
    started_at: p.startedAt,
    next_expected_at: p.nextExpectedAt,
    ended_at: null,
    status_changed_at: now,
    gift_count: 0,
    given_minor: 0,
    last_gift_at: null,
    missed_count: 0,
    resume_at: null,
    change_token: null,
    created_by: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * A processor's gift of a subscription: its plan (created when first seen) and the statements that
 * bring the plan along in the gift's batch, as gifts.ts does; or the refusal of another currency.
 */
export async function planForGift(
  db: Database,
  actor: PlanActor,
  g: {
    subscriptionId: string;
    donorId: string | null;
    campaignId: string | null;
    amountMinor: number;
    currency: string;
    frequency: string;
    donatedAt: number;
    completed: boolean;
    gateway: string | null;
    paymentMethod: string | null;
    reason: string;
  },
) {
  const tz = actor.org.timeZone;
  const existing = await planBySubscription(db, actor.org.id, g.subscriptionId);
  if (!existing) {
    const interval = intervalOfFrequency(g.frequency) ?? "month";
    const day = Number(localDay(g.donatedAt, tz).slice(8, 10));
    const row = newPlanRow({
      organizationId: actor.org.id,
      donorId: g.donorId,
      campaignId: g.campaignId,
      amountMinor: g.amountMinor,
      currency: g.currency,
      interval,
      intervalDay: day,
      startedAt: g.donatedAt,
      nextExpectedAt: nextDue(g.donatedAt, interval, day, tz),
      gateway: g.gateway,
      subscriptionId: g.subscriptionId,
      paymentMethod: g.paymentMethod,
    });
    const batch = planChangeBatch(db, actor, {
      before: null,
      after: row,
      event: { kind: "created", at: Math.min(g.donatedAt, Date.now()) },
      audit: { action: "plan.webhook_create", after: { subscriptionId: g.subscriptionId }, reason: g.reason },
      ignoreDuplicate: true,
    });
    return {
      planId: row.id,
      frequency: FREQUENCY_OF[interval],
      prelude: batch.statements,
      requires: batch.guard,
    };
  }
  // The portal's rule: a gift in another currency is refused (400), not added to the plan's total.
  const refusal = planGiftCurrencyProblem(existing.currency, g.currency);
  if (refusal) return { refusal };
  return giftJoinsPlan(db, actor, existing, { ...g, action: "plan.webhook_recovered" });
}
