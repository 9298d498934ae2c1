/**
 * The public campaign page (DESIGN §5.3): no sign-in, no personal data beyond display names;
 * anonymous donors hidden; drafts and private campaigns answer NOT_FOUND like a missing one.
 */
import { fail } from "../../trpc/init";
import { presentCampaign } from "../present";
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
  const p = presentCampaign(row);
  return {
    organization: { name: org.name, slug: org.slug, logoUrl: org.logo_url, badges },
    campaign: {
      title: p.title,
      slug: row.slug,
      shortDescription: p.shortDescription,
      description: p.description,
      coverUrl: p.coverUrl,
      currency: p.currency,
      goalType: p.goalType,
      goalAmountMinor: p.goalAmountMinor,
      goalCount: p.goalCount,
      raisedMinor: p.raisedMinor,
      donationCount: p.donationCount,
      donorCount: p.donorCount,
      goalProgress: p.goalProgress,
      closed: row.status === "archived" || row.status === "completed",
      status: row.status,
      phase: p.phase,
      startAt: p.startAt,
      endAt: p.endAt,
      suggestedAmounts: p.suggestedAmounts,
      minAmountMinor: p.minAmountMinor,
      maxAmountMinor: p.maxAmountMinor,
      allowRecurring: p.allowRecurring,
      recurringFrequencies: p.recurringFrequencies,
    },
    items: items.map((i) => ({
      id: i.id,
      title: i.title,
      description: i.description,
      imageUrl: i.image_url,
      unitAmountMinor: i.unit_amount_minor,
      quantityNeeded: i.quantity_needed,
      quantityFunded: i.funded,
      fullyFunded: i.quantity_needed !== null && i.funded >= i.quantity_needed,
    })),
    recent: recent.map((r) => ({
      name: r.anonymous ? "Anonymous" : (r.name ?? "A friend"),
      amountMinor: r.amount,
      currency: r.currency,
      at: r.at,
      message: r.anonymous ? null : r.message,
    })),
  };
}
