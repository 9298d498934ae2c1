/**
 * A gift's receipts (issue 25, decision 031): every receipt it was given, oldest first (voided ones
 * with when and why, corrections naming the one they replace), and, when it has none issued, why.
 */
import { formatReceiptNumber, whyNoReceipt } from "@core/receipts";
import { orgDb } from "../db/databases";
import { fail, type OrgCtx } from "../trpc/init";

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
  replaces_number: number | null;
  replaces_prefix: string | null;
}

export async function donationReceipts(ctx: Pick<OrgCtx, "env" | "org">, donationId: string) {
  const db = orgDb(ctx);
  const [gift, list] = await db.batch([
    db
      .prepare(
        `SELECT d.mode, d.status, d.trashed_at, d.source, d.donor_id, dn.anonymized_at, d.amount_minor, d.refunded_minor,
                d.created_at < COALESCE((SELECT value FROM org_counter WHERE organization_id = d.organization_id AND name = 'receipts_from'), 0) AS before_receipts
           FROM donation d LEFT JOIN donor dn ON dn.id = d.donor_id WHERE d.organization_id = ? AND d.id = ?`,
      )
      .bind(ctx.org.id, donationId),
    db
      .prepare(
        `SELECT r.id, r.number, json_extract(r.snapshot, '$.settings.numberPrefix') AS prefix, r.kind, r.status, r.currency,
                r.amount_minor, r.deductible_minor, r.issued_at, r.voided_at, r.void_reason,
                p.number AS replaces_number, json_extract(p.snapshot, '$.settings.numberPrefix') AS replaces_prefix
           FROM receipt r LEFT JOIN receipt p ON p.id = r.replaces_id
          WHERE r.organization_id = ? AND r.donation_id = ? ORDER BY r.number`,
      )
      .bind(ctx.org.id, donationId),
  ]);
  const d = gift?.results[0] as
    | {
        mode: string;
        status: string;
        trashed_at: number | null;
        source: string;
        donor_id: string | null;
        anonymized_at: number | null;
        amount_minor: number;
        refunded_minor: number;
        before_receipts: number;
      }
    | undefined;
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
    voidReason: r.void_reason,
    replaces:
      r.replaces_number === null ? null : formatReceiptNumber(r.replaces_prefix ?? "", r.replaces_number),
  }));
  return {
    receipts,
    /** Why the gift has no issued receipt (null when it has one, or calls for one). */
    none: receipts.some((r) => r.status === "issued")
      ? null
      : whyNoReceipt({
          mode: d.mode,
          status: d.status,
          trashed: d.trashed_at !== null,
          source: d.source,
          hasDonor: d.donor_id !== null,
          donorAnonymized: d.anonymized_at !== null,
          amountMinor: d.amount_minor,
          refundedMinor: d.refunded_minor,
          beforeReceipts: !!d.before_receipts,
        }),
  };
}
