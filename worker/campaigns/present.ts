/** Campaign rows → the API's shapes (docs/architecture.md). The phase and progress rules are core's. */
import { campaignPhase, type GoalType, goalProgress, RECURRING_FREQUENCIES } from "@core/campaign";
import { type CampaignStatus, campaignTransitions } from "@core/status";
import type { campaign, campaignStats } from "../db/domain";
import type { Row } from "../db/rows";

/** A campaign as queries.ts CAMPAIGN_SELECT returns it; CHECKs hold status and goal type to core's sets. */
export type CampaignRow = Omit<Row<typeof campaign>, "status" | "goal_type"> & {
  status: CampaignStatus;
  goal_type: GoalType;
} & Pick<Row<typeof campaignStats>, "raised_minor" | "donation_count" | "donor_count">;

export function presentCampaign(c: CampaignRow, now = Date.now()) {
  const progress = {
    goalType: c.goal_type,
    goalAmountMinor: c.goal_amount_minor,
    goalCount: c.goal_count,
    raisedMinor: c.raised_minor,
    donationCount: c.donation_count,
    donorCount: c.donor_count,
  };
  return {
    id: c.id,
    title: c.title,
    slug: c.slug,
    shortDescription: c.short_description,
    description: c.description,
    coverUrl: c.cover_url,
    currency: c.currency,
    goalType: c.goal_type,
    goalAmountMinor: c.goal_amount_minor,
    goalCount: c.goal_count,
    startAt: c.start_at,
    endAt: c.end_at,
    acceptAfterEnd: !!c.accept_after_end,
    completeOnGoal: !!c.complete_on_goal,
    suggestedAmounts: JSON.parse(c.suggested_amounts || "[]") as number[],
    minAmountMinor: c.min_amount_minor,
    maxAmountMinor: c.max_amount_minor,
    allowRecurring: !!c.allow_recurring,
    recurringFrequencies: c.allow_recurring ? [...RECURRING_FREQUENCIES] : [],
    visibility: c.visibility,
    status: c.status,
    phase: campaignPhase({ ...progress, startAt: c.start_at, endAt: c.end_at }, now),
    allowedTransitions: campaignTransitions[c.status],
    raisedMinor: progress.raisedMinor,
    donationCount: progress.donationCount,
    donorCount: progress.donorCount,
    goalProgress: goalProgress(progress),
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  };
}

export type Campaign = ReturnType<typeof presentCampaign>;
