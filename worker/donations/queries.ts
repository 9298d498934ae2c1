/**
 * The donations' SQL (docs/architecture.md: the only place of the area that speaks SQL, besides
 * the write helper `write.ts`, the rollups and the export). The list's statements are in
 * `list-queries.ts`.
 */
import type { DonationStatus } from "@core/status";
import { itemFundedSql } from "../campaigns/items/queries";
import type { Database } from "../db/databases";
import type { Row } from "../db/rows";
import type { auditEvent, donation } from "../db/schema";
import type { Guard } from "../lib/guard";

/** A donation as `SELECT *` gives it (worker/db/rows.ts), its status one of the machine's. */
export type DonationRow = Omit<Row<typeof donation>, "status"> & { status: DonationStatus };

/** A donation with the donor's and the campaign's names (`SELECT ${SELECT} FROM ${FROM}`). */
export type DonationListRow = DonationRow & {
  donor_name: string | null;
  donor_email: string | null;
  campaign_title: string | null;
};

export const SELECT = `d.*, CASE WHEN dn.anonymized_at IS NOT NULL THEN 'Anonymized' ELSE COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, dn.email) END AS donor_name,
  dn.email AS donor_email, c.title AS campaign_title`;
export const FROM =
  "donation d LEFT JOIN donor dn ON dn.id = d.donor_id LEFT JOIN campaign c ON c.id = d.campaign_id";

/** One donation of the organization with its names, or null. */
export function donationById(db: Database, orgId: string, id: string) {
  return db
    .prepare(`SELECT ${SELECT} FROM ${FROM} WHERE d.organization_id = ? AND d.id = ?`)
    .bind(orgId, id)
    .first<DonationListRow>();
}

/**
 * The organization's donations among `ids`, as stored (a bulk change's read): one bound parameter
 * for the ids (json_each), so a call of BULK_MAX_IDS stays under D1's 100 parameters. Ids of
 * another organization are simply not there.
 */
export async function donationsByIds(db: Database, orgId: string, ids: readonly string[]) {
  const { results } = await db
    .prepare("SELECT * FROM donation WHERE organization_id = ? AND id IN (SELECT value FROM json_each(?))")
    .bind(orgId, JSON.stringify(ids))
    .all<DonationRow>();
  return results;
}

/** The organization's donation of a processor's transaction, as stored (the webhook's look-up). */
export function donationByTransaction(db: Database, orgId: string, transactionId: string) {
  return db
    .prepare("SELECT * FROM donation WHERE organization_id = ? AND gateway_transaction_id = ?")
    .bind(orgId, transactionId)
    .first<DonationRow>();
}

/** The donor a gift just inserted landed on (the webhook resolves its donor by e-mail in SQL). */
export function donorOfDonation(db: Database, id: string) {
  return db
    .prepare("SELECT donor_id FROM donation WHERE id = ?")
    .bind(id)
    .first<{ donor_id: string | null }>();
}

/** A status-timeline event: the audit row's columns the timeline shows, and who acted. */
export type AuditEventRow = Pick<Row<typeof auditEvent>, "action" | "before" | "after" | "reason" | "at"> & {
  actorId: string | null;
};

/** The audit events of one donation among `actions`, oldest first (the status timeline). */
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

/** The last 100 audit events of one record of the organization, newest first. */
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

/**
 * A donor of the organization, a merged one as the donor it was merged into, with whether that
 * donor is anonymized (it takes no new gifts); null if none.
 */
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

/** The currency a campaign of the organization collects in; null if no such campaign. */
export function campaignCurrency(db: Database, orgId: string, campaignId: string) {
  return db
    .prepare("SELECT currency, status FROM campaign WHERE id = ? AND organization_id = ?")
    .bind(campaignId, orgId)
    .first<{ currency: string; status: string }>();
}

/** A campaign's item for a new gift: whether it takes gifts, and how many are funded so far. */
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

/** A campaign's item for an edited gift: how many the other gifts fund. */
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

/** An item's need and what the gifts other than `donationId` fund (after a refused write). */
export function itemFunding(db: Database, itemId: string, donationId: string) {
  return db
    .prepare(
      `SELECT i.quantity_needed AS needed, i.allow_overfunding AS allowed,
              ${itemFundedSql("i.id", "?2")} AS funded
         FROM campaign_item i WHERE i.id = ?1`,
    )
    .bind(itemId, donationId)
    .first<{ needed: number | null; allowed: number; funded: number }>();
}

/**
 * Room left on an item that allows no overfunding for `quantity` more, as a condition of the row
 * write (decision 020): the read-then-write check alone let two concurrent gifts both pass.
 */
export const itemRoom = (itemId: string, quantity: number, donationId: string): Guard => ({
  sql: (
    p,
  ) => `NOT EXISTS (SELECT 1 FROM campaign_item i WHERE i.id = ?${p} AND i.allow_overfunding = 0 AND i.quantity_needed IS NOT NULL
      AND ${itemFundedSql("i.id", `?${p + 2}`)} + ?${p + 1} > i.quantity_needed)`,
  args: [itemId, quantity, donationId],
});

/** The donor is still its own record (not merged away) and not anonymized when the gift is written. */
export const donorTakesGifts = (donorId: string): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM donor WHERE id = ?${p} AND merged_into_id IS NULL AND anonymized_at IS NULL)`,
  args: [donorId],
});

/** The organization a processor names by slug, with its zone (the webhook's tenant). */
export function organizationBySlug(db: Database, slug: string) {
  return db
    .prepare("SELECT id, time_zone FROM organization WHERE slug = ?")
    .bind(slug)
    .first<{ id: string; time_zone: string }>();
}

/** A campaign of the organization by slug, with its currency. */
export function campaignBySlug(db: Database, orgId: string, slug: string) {
  return db
    .prepare("SELECT id, currency FROM campaign WHERE organization_id = ? AND slug = ?")
    .bind(orgId, slug)
    .first<{ id: string; currency: string }>();
}

/** The organization's donor with this (lower-cased) e-mail. */
export function donorIdByEmail(db: Database, orgId: string, email: string) {
  return db
    .prepare("SELECT id FROM donor WHERE organization_id = ? AND email = ?")
    .bind(orgId, email)
    .first<{ id: string }>();
}

/**
 * A donor for a processor's gift, unless the organization has one with this e-mail: runs first in
 * the gift's batch, so the donor's stats are recomputed with the gift (issue 8).
 */
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
