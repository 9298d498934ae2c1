/**
 * The receipt ledger (issue 25, decision 031): the statements a gift change adds to its batch
 * (worker/donations/write.ts `donationChangeStatements`) so that, after the change, the gift has
 * exactly the receipt it calls for:
 *
 *   1. its issued receipt is voided when the gift no longer calls for one, or for another one (the
 *      deductible amount, the currency or the donor changed: a refund, a correction, a move);
 *   2. when the gift calls for a receipt and has none issued, the organization's receipt counter
 *      moves on by one and
 *   3. the receipt is inserted with that number: a correction (naming the receipt it replaces)
 *      when the gift had one before, else an original, with a snapshot of what it says.
 *
 * Each statement carries the gift change's guard (its fresh change token): a change that lost its
 * race takes no number, so the sequence has no gaps; 2 and 3 test the same condition, so no number
 * is taken without its receipt; UNIQUE (organization_id, number) makes a duplicate impossible.
 *
 * A gift calls for a receipt when it is live, counted (completed or partially refunded, not
 * trashed), of a known donor who is not anonymized, not imported (the system it came from
 * receipted it), recorded since receipts began here (org_counter 'receipts_from', set by
 * drizzle/0019 for the organizations that existed then and by the seed: an old gift edited later
 * does not get a receipt out of the blue), and something of it is deductible: amount − refunded > 0 (the donor's cover of
 * the fees is part of the gift; processing and platform fees are the organization's costs).
 */

import { generateId } from "../auth/crypto";
import type { Database } from "../db/databases";
import type { Guard } from "../lib/guard";

/** The gift `d` (joined with its donor `dn`) calls for a receipt. */
const CALLS_FOR_RECEIPT = `d.mode = 'live' AND d.status IN ('completed','partially_refunded') AND d.trashed_at IS NULL
  AND d.source <> 'import' AND d.donor_id IS NOT NULL AND dn.anonymized_at IS NULL AND d.amount_minor - d.refunded_minor > 0
  AND d.created_at >= COALESCE((SELECT value FROM org_counter WHERE organization_id = d.organization_id AND name = 'receipts_from'), 0)`;

const GIFT = "donation d JOIN donor dn ON dn.id = d.donor_id";

/** What the receipt says, as of its issue (decision 031: a reprint is the same document). */
const SNAPSHOT = `json_object(
  'donor', json_object(
    'name', COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company),
    'company', dn.company, 'email', dn.email,
    'address', json_object('line1', dn.address_line1, 'line2', dn.address_line2, 'city', dn.city,
      'region', dn.region, 'postalCode', dn.postal_code, 'country', dn.country)),
  'gift', json_object('number', d.number, 'amountMinor', d.amount_minor, 'refundedMinor', d.refunded_minor,
    'currency', d.currency, 'donatedAt', d.donated_at, 'paymentMethod', d.payment_method,
    'tributeType', d.tribute_type, 'tributeName', d.tribute_name),
  'campaign', c.title,
  'organization', json_object('name', o.name, 'legalName', o.legal_name, 'registrationId', o.registration_id,
    'taxId', o.tax_id, 'address', json_object('line1', o.address_line1, 'line2', o.address_line2, 'city', o.city,
      'region', o.region, 'postalCode', o.postal_code, 'country', o.country),
    'logoUrl', o.logo_url, 'timeZone', o.time_zone),
  'settings', json_object('signatoryName', rs.signatory_name, 'signatoryTitle', rs.signatory_title,
    'taxStatement', rs.tax_statement, 'numberPrefix', COALESCE(rs.number_prefix, ''),
    'language', COALESCE(rs.language, 'en')))`;

/**
 * Receipts go out on their own (receipt_settings.auto_send) to a donor with an e-mail address:
 * queued here, in the gift's batch, and delivered after it (worker/receipts/delivery.ts).
 */
const QUEUED = `(CASE WHEN COALESCE(rs.auto_send, 0) = 1 AND dn.email IS NOT NULL THEN 'queued' ELSE 'none' END)`;

/** The index, in `receiptStatements`' answer, of the statement that inserts a receipt. */
export const RECEIPT_INSERT_INDEX = 2;

export function receiptStatements(
  db: Database,
  c: { organizationId: string; donationId: string; at: number; reason: string },
  guard: Guard,
): D1PreparedStatement[] {
  const { organizationId: org, donationId: gift, at } = c;
  // ?1 org, ?2 gift, then each statement's own, then the guard's.
  const stillRight = `EXISTS (SELECT 1 FROM ${GIFT} WHERE d.id = ?2 AND ${CALLS_FOR_RECEIPT}
      AND d.amount_minor - d.refunded_minor = receipt.deductible_minor AND d.currency = receipt.currency
      AND d.donor_id IS receipt.donor_id)`;
  const wanted = `EXISTS (SELECT 1 FROM ${GIFT} WHERE d.id = ?2 AND ${CALLS_FOR_RECEIPT})
      AND NOT EXISTS (SELECT 1 FROM receipt WHERE donation_id = ?2 AND status = 'issued')`;
  return [
    db
      .prepare(
        `UPDATE receipt SET status = 'void', voided_at = ?3, void_reason = ?4
          WHERE organization_id = ?1 AND donation_id = ?2 AND status = 'issued' AND NOT ${stillRight}
            AND ${guard.sql(5)}`,
      )
      .bind(org, gift, at, c.reason, ...guard.args),
    db
      .prepare(
        `INSERT INTO org_counter (organization_id, name, value) SELECT ?1, 'receipt', 1 WHERE ${wanted} AND ${guard.sql(3)}
          ON CONFLICT (organization_id, name) DO UPDATE SET value = value + 1`,
      )
      .bind(org, gift, ...guard.args),
    db
      .prepare(
        `INSERT INTO receipt (id, organization_id, donation_id, donor_id, number, kind, replaces_id, status, currency,
                              amount_minor, deductible_minor, donated_at, issued_at, snapshot, delivery, delivery_at)
         SELECT ?3, d.organization_id, d.id, d.donor_id,
                (SELECT value FROM org_counter WHERE organization_id = ?1 AND name = 'receipt'),
                CASE WHEN prev.id IS NULL THEN 'original' ELSE 'correction' END, prev.id, 'issued', d.currency,
                d.amount_minor, d.amount_minor - d.refunded_minor, d.donated_at, ?4, ${SNAPSHOT},
                ${QUEUED}, CASE WHEN ${QUEUED} = 'queued' THEN ?4 END
           FROM ${GIFT}
           LEFT JOIN campaign c ON c.id = d.campaign_id
           LEFT JOIN organization o ON o.id = d.organization_id
           LEFT JOIN receipt_settings rs ON rs.organization_id = d.organization_id
           LEFT JOIN (SELECT id FROM receipt WHERE donation_id = ?2 ORDER BY number DESC LIMIT 1) prev ON 1
          WHERE d.id = ?2 AND d.organization_id = ?1 AND ${wanted} AND ${guard.sql(5)}`,
      )
      .bind(org, gift, generateId(), at, ...guard.args),
  ];
}
