/** Donation rows → the API's shapes (docs/architecture.md). */
import { allowedDonationTargets } from "@core/status";
import { camelPick, type DonationRow } from "../db/rows";
import type { AuditEventRow, DonationListRow } from "./queries";

/** The row's columns the API gives as they are, camelCase. */
const AS_STORED = [
  "id",
  "number",
  "donor_id",
  "campaign_id",
  "campaign_item_id",
  "item_quantity",
  "amount_minor",
  "fee_covered_minor",
  "processing_fee_minor",
  "platform_fee_minor",
  "refunded_minor",
  "currency",
  "status",
  "frequency",
  "payment_method",
  "gateway",
  "gateway_transaction_id",
  "payment_reference",
  "source",
  "mode",
  "message",
  "tribute_type",
  "tribute_name",
  "internal_note",
  "donated_at",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof DonationRow)[];

/** The names are null where the row was read without its joins. */
export function presentDonation(d: DonationRow & Partial<DonationListRow>) {
  return {
    ...camelPick(d, AS_STORED),
    donorName: d.donor_name ?? null,
    donorEmail: d.donor_email ?? null,
    campaignTitle: d.campaign_title ?? null,
    netMinor: d.amount_minor - d.refunded_minor - d.processing_fee_minor - d.platform_fee_minor,
    allowedTransitions: d.trashed_at ? [] : allowedDonationTargets(d.status, d.source),
    /** The recurring plan this gift pays, if any: its page is /recurring/$planId. */
    planId: d.plan_id ?? null,
    anonymous: !!d.anonymous,
    trashed: d.trashed_at !== null,
  };
}

export const TIMELINE_ACTIONS = [
  "donation.status",
  "donation.correction",
  "donation.webhook_status",
  "donation.abandon",
  "donation.trash",
  "donation.restore",
] as const;

/** Recorded (with the first status), then every status change, trash and restore, oldest first. */
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
