/** The public page's rows → its API shape: display names only; an anonymous gift shows no name or message. */
import { publicDonorLabel } from "@core/labels";
import { type CampaignRow, presentCampaign } from "../present";
import type { activeOrganizationBySlug, offeredItems, recentGifts } from "./queries";

export function presentPublicCampaign(
  org: NonNullable<Awaited<ReturnType<typeof activeOrganizationBySlug>>>,
  row: CampaignRow,
  more: {
    badges: string[];
    items: Awaited<ReturnType<typeof offeredItems>>;
    recent: Awaited<ReturnType<typeof recentGifts>>;
  },
) {
  const { badges, items, recent } = more;
  const p = presentCampaign(row);
  return {
    // Its dates are the organization's days, on the server's render and in the visitor's browser alike.
    organization: { name: org.name, slug: org.slug, logoUrl: org.logo_url, timeZone: org.time_zone, badges },
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
      name: publicDonorLabel(r.name, r.anonymous),
      amountMinor: r.amount,
      currency: r.currency,
      at: r.at,
      message: r.anonymous ? null : r.message,
    })),
  };
}
