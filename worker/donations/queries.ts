// The donations' reads; a gift's writes are the ledger's (worker/ledger/).

import type { Database } from "../db/databases";
import type { DonationRow, Row } from "../db/rows";
import type { auditEvent } from "../db/schema";
import { itemFundedSql } from "../ledger/campaign-rollups";
import type { Guard } from "../lib/guard";

/** With its donor's and campaign's names: `SELECT ${SELECT} FROM ${FROM}`. */
export type DonationListRow = DonationRow & {
  donor_name: string | null;
  donor_email: string | null;
  campaign_title: string | null;
};

export const SELECT = `d.*, CASE WHEN dn.anonymized_at IS NOT NULL THEN 'Anonymized' ELSE COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, dn.email) END AS donor_name,
  dn.email AS donor_email, c.title AS campaign_title`;
export const FROM =
  "donation d LEFT JOIN donor dn ON dn.id = d.donor_id LEFT JOIN campaign c ON c.id = d.campaign_id";

export function donationById(db: Database, orgId: string, id: string) {
  return db
    .prepare(`SELECT ${SELECT} FROM ${FROM} WHERE d.organization_id = ? AND d.id = ?`)
    .bind(orgId, id)
    .first<DonationListRow>();
}

/** One bound parameter for the ids (json_each): a call of BULK_MAX_IDS stays under D1's 100 parameters. */
export async function donationsByIds(db: Database, orgId: string, ids: readonly string[]) {
  const { results } = await db
    .prepare("SELECT * FROM donation WHERE organization_id = ? AND id IN (SELECT value FROM json_each(?))")
    .bind(orgId, JSON.stringify(ids))
    .all<DonationRow>();
  return results;
}

export function donationByTransaction(db: Database, orgId: string, transactionId: string) {
  return db
    .prepare("SELECT * FROM donation WHERE organization_id = ? AND gateway_transaction_id = ?")
    .bind(orgId, transactionId)
    .first<DonationRow>();
}

/** The webhook resolves a new gift's donor by e-mail in SQL, so it reads back where it landed. */
export function donorOfDonation(db: Database, id: string) {
  return db
    .prepare("SELECT donor_id FROM donation WHERE id = ?")
    .bind(id)
    .first<{ donor_id: string | null }>();
}

export type AuditEventRow = Pick<Row<typeof auditEvent>, "action" | "before" | "after" | "reason" | "at"> & {
  actorId: string | null;
};

export async function donationEvents(db: Database, orgId: string, id: string, actions: readonly string[]) {
  const { results } = await db
    .prepare(
      `SELECT a.action, a.before, a.after, a.reason, a.at, a.actor_id AS actorId FROM audit_event a
          WHERE a.organization_id = ? AND a.entity_type = 'donation' AND a.entity_id = ? AND a.action IN (${actions.map(() => "?").join(",")})
          ORDER BY a.at, a.rowid LIMIT 200`,
    )
    .bind(orgId, id, ...actions)
    .all<AuditEventRow>();
  return results;
}

export async function entityHistory(db: Database, orgId: string, entityType: string, entityId: string) {
  const { results } = await db
    .prepare(
      `SELECT a.id, a.action, a.before, a.after, a.reason, a.at, a.actor_id AS actorId, a.impersonator_id AS impersonatorId
           FROM audit_event a
          WHERE a.organization_id = ? AND a.entity_type = ? AND a.entity_id = ? ORDER BY a.at DESC LIMIT 100`,
    )
    .bind(orgId, entityType, entityId)
    .all<AuditEventRow & { id: string; impersonatorId: string | null }>();
  return results;
}

/** A merged donor reads as the donor it was merged into; an anonymized one takes no new gifts. */
export function liveDonorId(db: Database, orgId: string, donorId: string) {
  return db
    .prepare(
      `SELECT t.id, t.anonymized_at IS NOT NULL AS anonymized
         FROM donor d JOIN donor t ON t.id = COALESCE(d.merged_into_id, d.id) AND t.organization_id = d.organization_id
        WHERE d.id = ? AND d.organization_id = ?`,
    )
    .bind(donorId, orgId)
    .first<{ id: string; anonymized: number }>();
}

export function campaignCurrency(db: Database, orgId: string, campaignId: string) {
  return db
    .prepare("SELECT currency, status FROM campaign WHERE id = ? AND organization_id = ?")
    .bind(campaignId, orgId)
    .first<{ currency: string; status: string }>();
}

export function itemForNewGift(db: Database, orgId: string, campaignId: string | null, itemId: string) {
  return db
    .prepare(
      `SELECT i.active, i.archived_at, i.quantity_needed, i.allow_overfunding,
                    ${itemFundedSql("i.id")} AS funded
               FROM campaign_item i WHERE i.id = ? AND i.campaign_id = ? AND i.organization_id = ?`,
    )
    .bind(itemId, campaignId, orgId)
    .first<{
      active: number;
      archived_at: number | null;
      quantity_needed: number | null;
      allow_overfunding: number;
      funded: number;
    }>();
}

/** `funded` counts the other gifts only. */
export function itemForEdit(
  db: Database,
  orgId: string,
  campaignId: string,
  itemId: string,
  donationId: string,
) {
  return db
    .prepare(
      `SELECT i.quantity_needed, i.allow_overfunding,
                    ${itemFundedSql("i.id", "?4")} AS funded
               FROM campaign_item i WHERE i.id = ?1 AND i.campaign_id = ?2 AND i.organization_id = ?3`,
    )
    .bind(itemId, campaignId, orgId, donationId)
    .first<{ quantity_needed: number | null; allow_overfunding: number; funded: number }>();
}

/** Read after a refused write; `funded` excludes `donationId`. */
export function itemFunding(db: Database, itemId: string, donationId: string) {
  return db
    .prepare(
      `SELECT i.quantity_needed, i.allow_overfunding, ${itemFundedSql("i.id", "?2")} AS funded
         FROM campaign_item i WHERE i.id = ?1`,
    )
    .bind(itemId, donationId)
    .first<{ quantity_needed: number | null; allow_overfunding: number; funded: number }>();
}

// A condition of the row write (decision 020): a read-then-write check alone lets two concurrent gifts pass.
export const itemRoom = (itemId: string, quantity: number, donationId: string): Guard => ({
  sql: (
    p,
  ) => `NOT EXISTS (SELECT 1 FROM campaign_item i WHERE i.id = ?${p} AND i.allow_overfunding = 0 AND i.quantity_needed IS NOT NULL
      AND ${itemFundedSql("i.id", `?${p + 2}`)} + ?${p + 1} > i.quantity_needed)`,
  args: [itemId, quantity, donationId],
});

/** Checked as the gift is written (decision 020): not merged away, not anonymized. */
export const donorTakesGifts = (donorId: string): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM donor WHERE id = ?${p} AND merged_into_id IS NULL AND anonymized_at IS NULL)`,
  args: [donorId],
});

/** The webhook's tenant; never a deleted organization. */
export function organizationBySlug(db: Database, slug: string) {
  return db
    .prepare("SELECT id, time_zone FROM organization WHERE slug = ? AND status != 'archived'")
    .bind(slug)
    .first<{ id: string; time_zone: string }>();
}

export function campaignBySlug(db: Database, orgId: string, slug: string) {
  return db
    .prepare("SELECT id, currency FROM campaign WHERE organization_id = ? AND slug = ?")
    .bind(orgId, slug)
    .first<{ id: string; currency: string }>();
}

/** Also an address a merge kept (donor_contact, decision 052): a gift from an old address finds them. */
export function donorIdByEmail(db: Database, orgId: string, email: string) {
  return db
    .prepare(
      `SELECT id FROM donor WHERE organization_id = ?1 AND email = ?2
       UNION ALL SELECT donor_id FROM donor_contact WHERE organization_id = ?1 AND kind = 'email' AND value = ?2
       LIMIT 1`,
    )
    .bind(orgId, email)
    .first<{ id: string }>();
}

/** Runs first in the gift's batch, so the donor's stats are recomputed with the gift. */
export function insertDonorIfNew(
  db: Database,
  d: {
    id: string;
    orgId: string;
    firstName: string | null;
    lastName: string | null;
    email: string;
    now: number;
  },
) {
  return db
    .prepare(
      "INSERT OR IGNORE INTO donor (id, organization_id, first_name, last_name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(d.id, d.orgId, d.firstName, d.lastName, d.email, d.now, d.now);
}
