/**
 * The public campaign page (DESIGN §5.3): no sign-in, no personal data beyond display names;
 * anonymous donors hidden; drafts and private campaigns answer NOT_FOUND like a missing one.
 */

import { directoryDatabase, organizationDatabase } from "../../db/databases";
import { fail } from "../../trpc/init";
import { presentPublicCampaign } from "./present";
import {
  activeOrganizationBySlug,
  badgesInForce,
  campaignBySlug,
  offeredItems,
  recentGifts,
} from "./queries";

export async function publicCampaign(env: Env, organizationSlug: string, slug: string) {
  // The organization is found in the directory, its campaign in its own database (decision 027).
  const directory = directoryDatabase(env);
  const org = await activeOrganizationBySlug(directory, organizationSlug);
  if (!org) fail("NOT_FOUND", "Campaign not found");
  const db = organizationDatabase(env, org.id);
  const row = await campaignBySlug(db, org.id, slug);
  if (!row || row.visibility === "private" || row.status === "draft") fail("NOT_FOUND", "Campaign not found");
  const recent = await recentGifts(db, row.id);
  const items = await offeredItems(db, row.id);
  const badges = await badgesInForce(directory, org.id, Date.now());
  return presentPublicCampaign(org, row, { badges, items, recent });
}
