/**
 * The public campaign page (DESIGN §5.3): no sign-in, no personal data beyond display names;
 * anonymous donors hidden; drafts and private campaigns answer NOT_FOUND like a missing one.
 */
import { fail } from "../../trpc/init";
import { presentPublicCampaign } from "./present";
import {
  activeOrganizationBySlug,
  badgesInForce,
  campaignBySlug,
  offeredItems,
  recentGifts,
} from "./queries";

export async function publicCampaign(db: D1Database, organizationSlug: string, slug: string) {
  const org = await activeOrganizationBySlug(db, organizationSlug);
  if (!org) fail("NOT_FOUND", "Campaign not found");
  const row = await campaignBySlug(db, org.id, slug);
  if (!row || row.visibility === "private" || row.status === "draft") fail("NOT_FOUND", "Campaign not found");
  const recent = await recentGifts(db, row.id);
  const items = await offeredItems(db, row.id);
  const badges = await badgesInForce(db, org.id, Date.now());
  return presentPublicCampaign(org, row, { badges, items, recent });
}
