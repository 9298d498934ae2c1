/** Campaign items' SQL (docs/architecture.md: the only place that speaks it). */
import type { Database } from "../../db/databases";
import type { campaignItem } from "../../db/domain";
import type { Row } from "../../db/rows";
import { itemFundedSql } from "../../ledger/campaign-rollups";
import type { Guard } from "../../lib/guard";

/** An item with how many units counted gifts funded. */
export type ItemRow = Row<typeof campaignItem> & { funded: number };

export async function itemRows(db: Database, orgId: string, campaignId: string) {
  const { results } = await db
    .prepare(
      `SELECT i.*, ${itemFundedSql("i.id")} AS funded
         FROM campaign_item i WHERE i.campaign_id = ? AND i.organization_id = ? ORDER BY i.archived_at IS NOT NULL, i.sort_order, i.created_at`,
    )
    .bind(campaignId, orgId)
    .all<ItemRow>();
  return results;
}

export function itemRow(db: Database, orgId: string, id: string) {
  return db
    .prepare("SELECT * FROM campaign_item WHERE id = ? AND organization_id = ?")
    .bind(id, orgId)
    .first<Row<typeof campaignItem>>();
}

export function itemExists(db: Database, id: string) {
  return db.prepare("SELECT 1 FROM campaign_item WHERE id = ?").bind(id).first();
}

export async function itemHasDonations(db: Database, id: string) {
  return !!(await db.prepare("SELECT 1 FROM donation WHERE campaign_item_id = ? LIMIT 1").bind(id).first());
}

/** A new item, placed after the campaign's others. */
export function insertItem(
  db: Database,
  i: {
    id: string;
    orgId: string;
    campaignId: string;
    title: string;
    description: string | null;
    unitAmountMinor: number;
    quantityNeeded: number | null;
    allowOverfunding: boolean;
    now: number;
  },
) {
  return db
    .prepare(
      `INSERT INTO campaign_item (id, organization_id, campaign_id, title, description, unit_amount_minor, quantity_needed, allow_overfunding, sort_order, active, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(sort_order), 0) + 1 FROM campaign_item WHERE campaign_id = ?), 1, ?, ?)`,
    )
    .bind(
      i.id,
      i.orgId,
      i.campaignId,
      i.title,
      i.description,
      i.unitAmountMinor,
      i.quantityNeeded,
      i.allowOverfunding ? 1 : 0,
      i.campaignId,
      i.now,
      i.now,
    );
}

/** Only the given fields change (undefined = keep); `archived` archives or restores. */
export function updateItem(
  db: Database,
  input: {
    id: string;
    title?: string;
    description?: string | null;
    unitAmountMinor?: number;
    quantityNeeded?: number | null;
    allowOverfunding?: boolean;
    active?: boolean;
    archived?: boolean;
  },
  now: number,
) {
  return db
    .prepare(
      `UPDATE campaign_item SET title = COALESCE(?, title), unit_amount_minor = COALESCE(?, unit_amount_minor),
           quantity_needed = CASE WHEN ? THEN ? ELSE quantity_needed END, active = COALESCE(?, active),
           description = CASE WHEN ? THEN ? ELSE description END, allow_overfunding = COALESCE(?, allow_overfunding),
           archived_at = CASE WHEN ? IS NULL THEN archived_at WHEN ? THEN ? ELSE NULL END, updated_at = ? WHERE id = ?`,
    )
    .bind(
      input.title ?? null,
      input.unitAmountMinor ?? null,
      input.quantityNeeded !== undefined ? 1 : 0,
      input.quantityNeeded ?? null,
      input.active === undefined ? null : input.active ? 1 : 0,
      input.description !== undefined ? 1 : 0,
      input.description ?? null,
      input.allowOverfunding === undefined ? null : input.allowOverfunding ? 1 : 0,
      input.archived === undefined ? null : 1,
      input.archived ? 1 : 0,
      now,
      now,
      input.id,
    );
}

/** The item exists and no gift names it (a gift recorded meanwhile would lose its item). */
export const itemUnused = (id: string): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM campaign_item WHERE id = ?${p}) AND NOT EXISTS (SELECT 1 FROM donation WHERE campaign_item_id = ?${p})`,
  args: [id],
});

export function deleteItem(db: Database, id: string, guard: Guard) {
  return db.prepare(`DELETE FROM campaign_item WHERE id = ?1 AND ${guard.sql(2)}`).bind(id, ...guard.args);
}

export function setItemOrder(
  db: Database,
  i: { id: string; campaignId: string; orgId: string; sortOrder: number; now: number },
) {
  return db
    .prepare(
      "UPDATE campaign_item SET sort_order = ?, updated_at = ? WHERE id = ? AND campaign_id = ? AND organization_id = ?",
    )
    .bind(i.sortOrder, i.now, i.id, i.campaignId, i.orgId);
}
