// The receipt ledger (decision 031): statements a gift change adds to its batch so the gift ends with exactly
// the receipt it calls for: (1) void an issued receipt it no longer calls for, or that is going; (2) move the
// counter and (3) insert the receipt (a correction if it had one) when none is issued. All carry the change's
// guard, so a lost race takes no number; 2 and 3 test one condition; UNIQUE (organization_id, number) rules
// out duplicates. A gift calls for one when live, counted, of a known donor, not imported, created since
// org_counter 'receipts_from', and amount − refunded > 0 (processing and platform fees are the org's costs).

import type { Database } from "../db/databases";
import type { Guard } from "../lib/guard";
import { generateId } from "../lib/ids";
import { SNAPSHOT } from "./receipt-snapshot";

/** The gift `d` (joined with its donor `dn`) calls for a receipt. */
const CALLS_FOR_RECEIPT = `d.mode = 'live' AND d.status IN ('completed','partially_refunded') AND d.trashed_at IS NULL
  AND d.source <> 'import' AND d.donor_id IS NOT NULL AND dn.anonymized_at IS NULL AND d.amount_minor - d.refunded_minor > 0
  AND d.created_at >= COALESCE((SELECT value FROM org_counter WHERE organization_id = d.organization_id AND name = 'receipts_from'), 0)`;

const GIFT = "donation d JOIN donor dn ON dn.id = d.donor_id";

/** Receipts go out on their own (receipt_settings.auto_send) to a donor with an e-mail: queued in the gift's
 * batch. `notify` (?q: 1 send, 0 not, NULL the setting) lets a change decide, as the refund dialog does. */
const queued = (q: string) =>
  `(CASE WHEN dn.email IS NOT NULL AND dn.anonymized_at IS NULL AND COALESCE(${q}, rs.auto_send, 0) = 1 THEN 'queued' ELSE 'none' END)`;

/** Why a receipt is voided, in the donor's terms (void_cause): read from the gift as the change leaves it, or
 * 'cancelled' when the change deletes it. The staff's reason stays internal in void_reason. */
const VOID_CAUSE = `(CASE WHEN ?6 = 1 THEN 'cancelled'
    ELSE (SELECT CASE WHEN d.trashed_at IS NOT NULL THEN 'cancelled'
                      WHEN d.status = 'refunded' THEN 'refunded'
                      WHEN ${CALLS_FOR_RECEIPT} THEN 'replaced'
                      WHEN d.status NOT IN ('completed','partially_refunded') THEN 'cancelled'
                 END FROM donation d LEFT JOIN donor dn ON dn.id = d.donor_id WHERE d.id = ?2) END)`;

interface ReceiptChange {
  organizationId: string;
  donationId: string;
  at: number;
  /** The staff's words for a void (internal). */
  reason: string;
  /** The change deletes the gift (a purge): its receipt is voided, none is issued. */
  gone?: boolean;
  /** E-mail the donor what the change leaves (a receipt, a full refund's notice); undefined: the setting. */
  notify?: boolean;
}

/** In batch order: `void` the receipt the change makes wrong, move the `counter`, `issue` the new one. */
interface ReceiptStatements {
  void: D1PreparedStatement;
  counter: D1PreparedStatement;
  issue: D1PreparedStatement;
}

export function receiptStatements(db: Database, c: ReceiptChange, guard: Guard): ReceiptStatements {
  const { organizationId: org, donationId: gift, at } = c;
  const gone = c.gone ? 1 : 0;
  const notify = c.notify === undefined ? null : c.notify ? 1 : 0;
  // ?1 org, ?2 gift, then each statement's own, then the guard's. A gift that is going calls for no receipt,
  // whatever its row still says: its receipt must not stay issued, detached by ON DELETE set null.
  const stillRight = `?6 = 0 AND EXISTS (SELECT 1 FROM ${GIFT} WHERE d.id = ?2 AND ${CALLS_FOR_RECEIPT}
      AND d.amount_minor - d.refunded_minor = receipt.deductible_minor AND d.currency = receipt.currency
      AND d.donor_id IS receipt.donor_id)`;
  const wanted = (
    g: string,
  ) => `${g} = 0 AND EXISTS (SELECT 1 FROM ${GIFT} WHERE d.id = ?2 AND ${CALLS_FOR_RECEIPT})
      AND NOT EXISTS (SELECT 1 FROM receipt WHERE donation_id = ?2 AND status = 'issued')`;
  // A full refund leaves no receipt to send: the void one carries the notice that says so.
  const refundNotice = `(SELECT ${queued("?5")} FROM ${GIFT} LEFT JOIN receipt_settings rs ON rs.organization_id = d.organization_id
      WHERE d.id = ?2 AND d.status = 'refunded' AND d.trashed_at IS NULL AND d.mode = 'live')`;
  // Queued, unless the gift is going; a receipt still waiting to go out when voided goes nowhere.
  const notice = `(?6 = 0 AND COALESCE(${refundNotice}, 'none') = 'queued')`;
  return {
    void: db
      .prepare(
        `UPDATE receipt SET status = 'void', voided_at = ?3, void_reason = ?4, void_cause = ${VOID_CAUSE},
                delivery = CASE WHEN ${notice} THEN 'queued' WHEN delivery = 'queued' THEN 'none' ELSE delivery END,
                delivery_at = CASE WHEN ${notice} THEN ?3 ELSE delivery_at END,
                delivery_error = CASE WHEN ${notice} THEN NULL ELSE delivery_error END
          WHERE organization_id = ?1 AND donation_id = ?2 AND status = 'issued' AND NOT (${stillRight})
            AND ${guard.sql(7)}`,
      )
      .bind(org, gift, at, c.reason, notify, gone, ...guard.args),
    counter: db
      .prepare(
        `INSERT INTO org_counter (organization_id, name, value) SELECT ?1, 'receipt', 1 WHERE ${wanted("?3")} AND ${guard.sql(4)}
          ON CONFLICT (organization_id, name) DO UPDATE SET value = value + 1`,
      )
      .bind(org, gift, gone, ...guard.args),
    issue: db
      .prepare(
        `INSERT INTO receipt (id, organization_id, donation_id, donor_id, number, kind, replaces_id, status, currency,
                              amount_minor, deductible_minor, donated_at, issued_at, snapshot, delivery, delivery_at)
         SELECT ?3, d.organization_id, d.id, d.donor_id,
                (SELECT value FROM org_counter WHERE organization_id = ?1 AND name = 'receipt'),
                CASE WHEN prev.id IS NULL THEN 'original' ELSE 'correction' END, prev.id, 'issued', d.currency,
                d.amount_minor, d.amount_minor - d.refunded_minor, d.donated_at, ?4, ${SNAPSHOT},
                ${queued("?5")}, CASE WHEN ${queued("?5")} = 'queued' THEN ?4 END
           FROM ${GIFT}
           LEFT JOIN campaign c ON c.id = d.campaign_id
           LEFT JOIN organization o ON o.id = d.organization_id
           LEFT JOIN receipt_settings rs ON rs.organization_id = d.organization_id
           LEFT JOIN (SELECT id FROM receipt WHERE donation_id = ?2 ORDER BY number DESC LIMIT 1) prev ON 1
          WHERE d.id = ?2 AND d.organization_id = ?1 AND ${wanted("?6")} AND ${guard.sql(7)}`,
      )
      .bind(org, gift, generateId(), at, notify, gone, ...guard.args),
  };
}
