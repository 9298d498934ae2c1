/**
 * A gift joining its recurring plan (issue 24, decision 030), whichever way it came: a processor's
 * payment of a subscription (./webhook.ts) or a gift recorded by hand against a plan
 * (worker/donations/service.ts). The statements bring the plan along in the gift's own batch — a
 * completed gift makes a past-due or lapsed plan active again and moves the next expected gift a
 * period past it — and the guard the gift's write requires, so both land together or neither does.
 */
import { FREQUENCY_OF, nextDue, type PlanInterval } from "@core/plans";
import type { Database } from "../db/databases";
import { type PlanActor, type PlanRow, planChangeBatch } from "./write";

export interface PlanGift {
  donatedAt: number;
  completed: boolean;
  currency: string;
  /** Why the gift came (the audit row's reason): the webhook event, or empty for the portal. */
  reason?: string;
  /** The audit action of a plan the gift brings back: plan.webhook_recovered, plan.gift_recovered. */
  action: string;
}

export function giftJoinsPlan(db: Database, actor: PlanActor, plan: PlanRow, g: PlanGift) {
  const interval = plan.interval as PlanInterval;
  const frequency = FREQUENCY_OF[interval];
  // A pending gift, or one in another currency, belongs to the plan but says nothing of its health.
  if (!g.completed || g.currency !== plan.currency)
    return { planId: plan.id, frequency, prelude: [], requires: null };
  const now = Date.now();
  const stopped = ["cancelled", "completed", "paused"].includes(plan.status);
  // A late delivery or a backlog entered by hand never moves the expected gift back.
  const next = nextDue(g.donatedAt, interval, plan.interval_day, actor.org.timeZone);
  const after: PlanRow = {
    ...plan,
    next_expected_at: stopped ? plan.next_expected_at : Math.max(plan.next_expected_at ?? 0, next),
    missed_count: 0,
    updated_at: now,
  };
  const recovering = plan.status === "past_due" || plan.status === "lapsed";
  if (recovering) {
    after.status = "active";
    after.status_changed_at = now;
  }
  const batch = planChangeBatch(db, actor, {
    before: plan,
    after,
    // Back when the gift came, but never before the plan fell behind (a backlog entered late).
    event: recovering
      ? {
          kind: "status",
          at: Math.min(now, Math.max(g.donatedAt, plan.status_changed_at)),
          reason: "A gift arrived",
        }
      : null,
    audit: recovering
      ? {
          action: g.action,
          before: { status: plan.status },
          after: { status: after.status },
          reason: g.reason ?? null,
        }
      : null,
  });
  return { planId: plan.id, frequency, prelude: batch.statements, requires: batch.guard };
}
