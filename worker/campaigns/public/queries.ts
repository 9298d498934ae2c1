/** The public campaign page's SQL: only what a visitor may see (no personal data beyond names). */
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../../db/databases";
import { itemFundedSql } from "../../ledger/campaign-rollups";
import type { CampaignRow } from "../present";
import { CAMPAIGN_FROM, CAMPAIGN_SELECT } from "../queries";

export function activeOrganizationBySlug(db: Database, slug: string) {
  return db
    .prepare(
      "SELECT id, name, slug, logo_url, time_zone FROM organization WHERE slug = ? AND status = 'active'",
    )
    .bind(slug)
    .first<{ id: string; name: string; slug: string; logo_url: string | null; time_zone: string }>();
}

/** The campaign at `slug`, or the one an old slug of the organization redirects to. */
export async function campaignBySlug(db: Database, orgId: string, slug: string) {
  const row = await db
    .prepare(`SELECT ${CAMPAIGN_SELECT} FROM ${CAMPAIGN_FROM} WHERE c.organization_id = ? AND c.slug = ?`)
    .bind(orgId, slug)
    .first<CampaignRow>();
  if (row) return row;
  const old = await db
    .prepare("SELECT campaign_id FROM campaign_slug WHERE organization_id = ? AND slug = ?")
    .bind(orgId, slug)
    .first<{ campaign_id: string }>();
  if (!old) return null;
  return db
    .prepare(`SELECT ${CAMPAIGN_SELECT} FROM ${CAMPAIGN_FROM} WHERE c.id = ?`)
    .bind(old.campaign_id)
    .first<CampaignRow>();
}

/** The ten latest counted gifts; an anonymous donor's name is never read. */
export async function recentGifts(db: Database, campaignId: string) {
  const { results } = await db
    .prepare(
      `SELECT d.amount_minor AS amount, d.currency, d.donated_at AS at, d.message, d.anonymous,
              CASE WHEN d.anonymous = 1 THEN NULL ELSE COALESCE(dn.first_name, dn.company) END AS name
         FROM donation d LEFT JOIN donor dn ON dn.id = d.donor_id
        WHERE d.campaign_id = ? AND ${COUNTED_SQL("d")} ORDER BY d.donated_at DESC LIMIT 10`,
    )
    .bind(campaignId)
    .all<{
      amount: number;
      currency: string;
      at: number;
      message: string | null;
      anonymous: number;
      name: string | null;
    }>();
  return results;
}

/** The items on offer (active, not archived) with the units counted gifts funded. */
export async function offeredItems(db: Database, campaignId: string) {
  const { results } = await db
    .prepare(
      `SELECT i.id, i.title, i.description, i.image_url, i.unit_amount_minor, i.quantity_needed,
              ${itemFundedSql("i.id")} AS funded
         FROM campaign_item i WHERE i.campaign_id = ? AND i.active = 1 AND i.archived_at IS NULL
        ORDER BY i.sort_order, i.created_at`,
    )
    .bind(campaignId)
    .all<{
      id: string;
      title: string;
      description: string | null;
      image_url: string | null;
      unit_amount_minor: number;
      quantity_needed: number | null;
      funded: number;
    }>();
  return results;
}

/** The organization's badges in force now. */
export async function badgesInForce(db: Database, orgId: string, now: number) {
  const { results } = await db
    .prepare(
      "SELECT badge FROM organization_badge WHERE organization_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
    )
    .bind(orgId, now)
    .all<{ badge: string }>();
  return results.map((b) => b.badge);
}
