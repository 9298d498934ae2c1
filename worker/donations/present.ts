/** Donation rows → the API's shapes (docs/architecture.md). */
import { allowedDonationTargets } from "@core/status";
import type { AuditEventRow, DonationListRow, DonationRow } from "./queries";

/** A donation as the API gives it; the names are null where the row was read without its joins. */
export function presentDonation(d: DonationRow & Partial<DonationListRow>) {
  return {
    id: d.id,
    number: d.number,
    donorId: d.donor_id,
    donorName: d.donor_name ?? null,
    donorEmail: d.donor_email ?? null,
    campaignId: d.campaign_id,
    campaignTitle: d.campaign_title ?? null,
    campaignItemId: d.campaign_item_id,
    itemQuantity: d.item_quantity,
    amountMinor: d.amount_minor,
    feeCoveredMinor: d.fee_covered_minor,
    processingFeeMinor: d.processing_fee_minor,
    platformFeeMinor: d.platform_fee_minor,
    refundedMinor: d.refunded_minor,
    netMinor: d.amount_minor - d.refunded_minor - d.processing_fee_minor - d.platform_fee_minor,
    currency: d.currency,
    status: d.status,
    allowedTransitions: d.trashed_at ? [] : allowedDonationTargets(d.status, d.source),
    frequency: d.frequency,
    /** The recurring plan this gift pays, if any (issue 24): its page is /recurring/$planId. */
    planId: d.plan_id ?? null,
    paymentMethod: d.payment_method,
    gateway: d.gateway,
    gatewayTransactionId: d.gateway_transaction_id,
    source: d.source,
    mode: d.mode,
    anonymous: !!d.anonymous,
    message: d.message,
    tributeType: d.tribute_type,
    tributeName: d.tribute_name,
    internalNote: d.internal_note,
    donatedAt: d.donated_at,
    trashed: d.trashed_at !== null,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
  };
}

/** The audit actions the status timeline shows. */
export const TIMELINE_ACTIONS = [
  "donation.status",
  "donation.correction",
  "donation.webhook_status",
  "donation.abandon",
  "donation.trash",
  "donation.restore",
] as const;

/**
 * The status timeline of the detail page: recorded (with the first status), then every status
 * change, trash and restore from the audit log, oldest first.
 */
export function statusTimeline(d: DonationRow, events: (AuditEventRow & { actor: string | null })[]) {
  const parse = (v: string | null) =>
    v ? (JSON.parse(v) as { status?: string; refundedMinor?: number }) : {};
  const firstStatus = events.map((e) => parse(e.before).status).find((x) => !!x) ?? d.status;
  const out: {
    at: number;
    kind: "recorded" | "status" | "trash" | "restore";
    status: string | null;
    refundedMinor: number | null;
    reason: string | null;
    actor: string | null;
  }[] = [
    {
      at: d.created_at,
      kind: "recorded",
      status: firstStatus,
      refundedMinor: null,
      reason: null,
      actor: null,
    },
  ];
  for (const e of events) {
    if (e.action === "donation.trash" || e.action === "donation.restore") {
      out.push({
        at: e.at,
        kind: e.action === "donation.trash" ? "trash" : "restore",
        status: null,
        refundedMinor: null,
        reason: e.reason,
        actor: e.actor,
      });
      continue;
    }
    const after = parse(e.after);
    out.push({
      at: e.at,
      kind: "status",
      status: after.status ?? null,
      refundedMinor: after.refundedMinor ?? null,
      reason: e.reason,
      actor:
        e.actor ??
        (e.action === "donation.webhook_status"
          ? "Payment processor"
          : e.action === "donation.abandon"
            ? "System"
            : null),
    });
  }
  return out;
}
