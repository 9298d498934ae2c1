/**
 * The public campaign page (DESIGN §5.3): display names only, anonymous donors hidden; drafts and
 * private campaigns are NOT_FOUND like a missing one; a paused one's page stays (its link works).
 */

import { directoryDatabase, organizationDatabase } from "../../db/databases";
import { fail } from "../../lib/fail";
import type { OrgReader } from "../../trpc/init";
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
  return { ...presentPublicCampaign(org, row, { badges, items, recent }), preview: false };
}

/**
 * The page as visitors will see it, for any member, whatever its status; only in the caller's
 * organization (the org rung's, never the address's): another's is NOT_FOUND, as a missing one.
 */
export async function previewCampaign(ctx: OrgReader, organizationSlug: string, slug: string) {
  if (ctx.org.slug !== organizationSlug) fail("NOT_FOUND", "Campaign not found");
  const directory = directoryDatabase(ctx.env);
  const org = await activeOrganizationBySlug(directory, organizationSlug);
  if (!org || org.id !== ctx.org.id) fail("NOT_FOUND", "Campaign not found");
  const db = organizationDatabase(ctx.env, org.id);
  const row = await campaignBySlug(db, org.id, slug);
  if (!row) fail("NOT_FOUND", "Campaign not found");
  const recent = await recentGifts(db, row.id);
  const items = await offeredItems(db, row.id);
  const badges = await badgesInForce(directory, org.id, Date.now());
  return { ...presentPublicCampaign(org, row, { badges, items, recent }), preview: true };
}
