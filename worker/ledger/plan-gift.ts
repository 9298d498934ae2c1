/**
 * A gift joining its recurring plan (decision 030), from the webhook or entered by hand: statements that
 * bring the plan along in the gift's batch (a completed gift revives a failing plan and moves its next
 * expected gift on) and the guard the gift's write requires, so both land together or neither does.
 */
import { FREQUENCY_OF, nextDue, type PlanInterval } from "@core/plans";
import type { Database } from "../db/databases";
import { type PlanActor, type PlanRow, planChangeBatch } from "./plan-change";

/** A gift joining `plan`, in the plan's currency (core/plans.ts planGiftCurrencyProblem, checked first). */
interface PlanGift {
  donatedAt: number;
  completed: boolean;
  /** Why the gift came (the audit row's reason): the webhook event, or empty for the portal. */
  reason?: string;
  /** The audit action of a plan the gift brings back: plan.webhook_recovered, plan.gift_recovered. */
  action: "plan.webhook_recovered" | "plan.gift_recovered";
}

export function giftJoinsPlan(db: Database, actor: PlanActor, plan: PlanRow, g: PlanGift) {
  const interval = plan.interval as PlanInterval;
  const frequency = FREQUENCY_OF[interval];
  // A pending gift belongs to the plan but says nothing of its health.
  if (!g.completed) return { planId: plan.id, frequency, prelude: [], requires: null };
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
          reason: "A donation arrived",
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
