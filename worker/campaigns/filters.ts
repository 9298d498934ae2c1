/**
 * /campaigns' filters: campaigns.list and matchingIds parse this schema into one WHERE, so "all N
 * matching" is exactly the list's rows. The URL state is src/features/campaigns/search.ts.
 */
import { campaignPhases } from "@core/campaign";
import { calendarDay, currencyCode, enumSet } from "@core/schemas";
import { campaignStatuses } from "@core/status";
import { z } from "zod";
import { pageSchema } from "../lib/list";
import { CAMPAIGN_SORTS, type CampaignSort } from "./queries";

export const CAMPAIGN_IDS_MAX = 50;

export const campaignFilters = z.object({
  q: pageSchema.q,
  status: z.optional(enumSet(campaignStatuses)),
  phase: z.optional(enumSet(campaignPhases)),
  goalReached: z.boolean().optional(),
  /** Campaigns collecting this currency: a picker for gifts or reports of one currency. */
  currency: z.optional(currencyCode),
  /** Exactly these campaigns, as a picker names them; at most 50, within D1's 100 bound parameters. */
  ids: z.optional(z.array(z.string().min(1).max(64)).min(1).max(CAMPAIGN_IDS_MAX)),
  /** Campaigns running at some point between these local days (org time zone), inclusive. */
  from: z.optional(calendarDay),
  to: z.optional(calendarDay),
});
export type CampaignFilters = z.infer<typeof campaignFilters>;

/** campaigns.list: the filters, a page and a whitelisted sort. */
export const campaignListInput = campaignFilters.extend({
  ...pageSchema,
  sort: z.enum(Object.keys(CAMPAIGN_SORTS) as [CampaignSort]).default("created"),
});
export type CampaignListInput = z.infer<typeof campaignListInput>;
