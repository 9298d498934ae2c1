/** Recurring plans as the API gives them (docs/architecture.md: present). */
import {
  allowedPlanActions,
  annualMinor,
  monthlyFromAnnual,
  type PlanInterval,
  type PlanStatus,
} from "@core/plans";
import type { PlanEventRow, PlanListRow } from "./queries";

export function presentPlan(p: PlanListRow) {
  const status = p.status as PlanStatus;
  const interval = p.interval as PlanInterval;
  return {
    id: p.id,
    donorId: p.donor_id,
    donorName: p.donor_name,
    donorEmail: p.donor_email,
    campaignId: p.campaign_id,
    campaignTitle: p.campaign_title,
    amountMinor: p.amount_minor,
    currency: p.currency,
    interval,
    intervalDay: p.interval_day,
    /** The plan's amount over a month (a quarterly 30.00 is 10.00): its part of MRR while it counts. */
    monthlyMinor: monthlyFromAnnual(annualMinor(p.amount_minor, interval)),
    status,
    source: p.source,
    gateway: p.gateway,
    gatewaySubscriptionId: p.gateway_subscription_id,
    paymentMethod: p.payment_method,
    startedAt: p.started_at,
    nextExpectedAt: p.next_expected_at,
    /** When a pause with an end is over (the watch resumes the plan then). */
    resumeAt: p.resume_at,
    endedAt: p.ended_at,
    statusChangedAt: p.status_changed_at,
    giftCount: p.gift_count,
    givenMinor: p.given_minor,
    lastGiftAt: p.last_gift_at,
    missedCount: p.missed_count,
    createdAt: p.created_at,
    /** What the portal may offer: pause, resume, cancel (as the status machine allows). */
    allowedActions: allowedPlanActions(status),
    /** Only plans entered by hand change amount in the portal; a processor's plans change there. */
    amountEditable: p.source === "manual" && !["cancelled", "completed"].includes(status),
  };
}

export function presentPlanEvent(e: PlanEventRow & { actor: string | null }) {
  return {
    id: e.id,
    at: e.at,
    kind: e.kind,
    fromStatus: e.from_status,
    toStatus: e.to_status,
    monthlyBefore: monthlyFromAnnual(e.annual_before),
    monthlyAfter: monthlyFromAnnual(e.annual_after),
    currency: e.currency,
    reason: e.reason,
    actor: e.actor,
  };
}
