/** A gift's receipts (decision 031), oldest first, voided ones with when and why; or why it has none. */
import { formatReceiptNumber, whyNoReceipt, whyNoSend } from "@core/receipts";
import { orgDb } from "../db/databases";
import { fail } from "../lib/fail";
import { userNames } from "../lib/user-names";
import type { OrgReader } from "../trpc/init";

interface ReceiptListRow {
  id: string;
  number: number;
  prefix: string | null;
  kind: "original" | "correction";
  status: "issued" | "void";
  currency: string;
  amount_minor: number;
  deductible_minor: number;
  issued_at: number;
  voided_at: number | null;
  void_reason: string | null;
  void_cause: "replaced" | "refunded" | "cancelled" | null;
  replaces_number: number | null;
  replaces_prefix: string | null;
  delivery: string;
  delivery_error: string | null;
  sent_at: number | null;
  sent_to: string | null;
  send_count: number;
}

/** What decides whether a gift has a receipt, and whether anything can be e-mailed about it. */
export const GIFT_FACTS = `SELECT d.mode, d.status, d.trashed_at, d.source, d.donor_id, dn.anonymized_at, dn.email, d.amount_minor, d.refunded_minor,
       d.created_at < COALESCE((SELECT value FROM org_counter WHERE organization_id = d.organization_id AND name = 'receipts_from'), 0) AS before_receipts
  FROM donation d LEFT JOIN donor dn ON dn.id = d.donor_id WHERE d.organization_id = ? AND d.id = ?`;

export interface GiftFacts {
  mode: string;
  status: string;
  trashed_at: number | null;
  source: string;
  donor_id: string | null;
  anonymized_at: number | null;
  email: string | null;
  amount_minor: number;
  refunded_minor: number;
  before_receipts: number;
}

/** Why the gift has no receipt (core/receipts.ts whyNoReceipt's words), null when it calls for one. */
export const whyNone = (d: GiftFacts) =>
  whyNoReceipt({
    mode: d.mode,
    status: d.status,
    trashed: d.trashed_at !== null,
    source: d.source,
    hasDonor: d.donor_id !== null,
    donorAnonymized: d.anonymized_at !== null,
    amountMinor: d.amount_minor,
    refundedMinor: d.refunded_minor,
    beforeReceipts: !!d.before_receipts,
  });

export async function donationReceipts(ctx: OrgReader, donationId: string) {
  const db = orgDb(ctx);
  const [gift, list, sent] = await db.batch([
    db.prepare(GIFT_FACTS).bind(ctx.org.id, donationId),
    db
      .prepare(
        `SELECT r.id, r.number, json_extract(r.snapshot, '$.settings.numberPrefix') AS prefix, r.kind, r.status, r.currency,
                r.amount_minor, r.deductible_minor, r.issued_at, r.voided_at, r.void_reason, r.void_cause,
                p.number AS replaces_number, json_extract(p.snapshot, '$.settings.numberPrefix') AS replaces_prefix,
                r.delivery, r.delivery_error, r.sent_at, r.sent_to, r.send_count
           FROM receipt r LEFT JOIN receipt p ON p.id = r.replaces_id
          WHERE r.organization_id = ? AND r.donation_id = ? ORDER BY r.number`,
      )
      .bind(ctx.org.id, donationId),
    // What was e-mailed about this gift, newest first, with who sent it (none: on its own). A
    // receipt's mail was its correction's words, or a full refund's notice when it went after the
    // receipt was voided (worker/receipts/delivery.ts receiptMailOf).
    db
      .prepare(
        `SELECT a.id, CASE WHEN a.kind <> 'receipt' THEN a.kind
                           WHEN r.voided_at IS NOT NULL AND a.sent_at >= r.voided_at THEN 'refund'
                           WHEN r.kind = 'correction' THEN 'correction' ELSE 'receipt' END AS kind,
                a.sent_to, a.sent_at, a.sent_by
           FROM acknowledgement a LEFT JOIN receipt r ON r.id = a.receipt_id
          WHERE a.organization_id = ? AND a.donation_id = ? ORDER BY a.sent_at DESC LIMIT 50`,
      )
      .bind(ctx.org.id, donationId),
  ]);
  const d = gift?.results[0] as GiftFacts | undefined;
  if (!d) fail("NOT_FOUND", "Donation not found");
  const receipts = ((list?.results ?? []) as ReceiptListRow[]).map((r) => ({
    id: r.id,
    number: formatReceiptNumber(r.prefix ?? "", r.number),
    kind: r.kind,
    status: r.status,
    currency: r.currency,
    amountMinor: r.amount_minor,
    deductibleMinor: r.deductible_minor,
    issuedAt: r.issued_at,
    voidedAt: r.voided_at,
    /** The staff's reason: internal, never printed on the receipt. */
    voidReason: r.void_reason,
    /** What the receipt's PDF says instead, in the donor's terms. */
    voidCause: r.void_cause,
    replaces:
      r.replaces_number === null ? null : formatReceiptNumber(r.replaces_prefix ?? "", r.replaces_number),
    delivery: r.delivery as "none" | "queued" | "sending" | "sent" | "failed",
    deliveryError: r.delivery_error,
    sentAt: r.sent_at,
    sentTo: r.sent_to,
    sendCount: r.send_count,
  }));
  const issued = receipts.find((r) => r.status === "issued");
  const acks = (sent?.results ?? []) as {
    id: string;
    kind: "receipt" | "correction" | "refund" | "thanks" | "statement";
    sent_to: string;
    sent_at: number;
    sent_by: string | null;
  }[];
  // Users live in the directory (decision 027): their names are a second read, never a join.
  const names = await userNames(
    ctx.env,
    acks.map((a) => a.sent_by),
  );
  return {
    receipts,
    acknowledgements: acks.map((a) => ({
      id: a.id,
      kind: a.kind,
      sentTo: a.sent_to,
      sentAt: a.sent_at,
      /** Who sent it; null when it went out on its own. */
      sentBy: a.sent_by ? (names.get(a.sent_by) ?? "Former member") : null,
    })),
    /** Why nothing can be e-mailed to the donor about this gift (null: it can). */
    noSend:
      d.mode !== "live"
        ? "Test-mode donations get no receipt or thank-you."
        : !d.donor_id
          ? "A donation without a donor record gets no receipt or thank-you."
          : whyNoSend({ status: "issued", donorEmail: d.email, donorAnonymized: d.anonymized_at !== null }),
    /** The issued receipt's id, for Send and Download. */
    issuedId: issued?.id ?? null,
    /** Why the gift has no issued receipt (null when it has one, or calls for one). */
    none: receipts.some((r) => r.status === "issued") ? null : whyNone(d),
  };
}
