/**
 * campaigns.*: input schema, guard rung and one service call per procedure (docs/architecture.md).
 * The form's schema is core/campaign.ts (the portal's form parses the same one).
 */
import { bulkIds } from "@core/bulk";
import { campaignInput } from "@core/campaign";
import { calendarDay, checkPeriod } from "@core/schemas";
import { z } from "zod";
import { orgProcedure, publicProcedure, router } from "../trpc/init";
import { analyticsOf } from "./analytics/service";
import { campaignFilters, campaignListInput } from "./filters";
import { campaignItemsRouter } from "./items/router";
import { publicCampaign } from "./public/service";
import {
  bulkArchiveCampaigns,
  campaignActions,
  campaignById,
  createCampaign,
  listCampaigns,
  matchingCampaignIds,
  removeCampaign,
  saveCampaign,
  setCampaignStatus,
  toggleCampaign,
} from "./service";

const idInput = z.object({ id: z.string().min(1) });

export const campaignsRouter = router({
  list: orgProcedure({ campaign: ["view"] })
    .input(campaignListInput)
    .query(({ ctx, input }) => listCampaigns(ctx, input)),

  /**
   * "Select all N matching" (decision 024): the ids the list's filters match now, at most
   * MATCHING_MAX (more is a 422), and the statuses every one of them may move to. Only for those
   * who may archive them in bulk.
   */
  matchingIds: orgProcedure({ campaign: ["update"] })
    .input(campaignFilters)
    .query(({ ctx, input }) => matchingCampaignIds(ctx, input)),

  byId: orgProcedure({ campaign: ["view"] })
    .input(idInput)
    .query(({ ctx, input }) => campaignById(ctx, input.id)),

  create: orgProcedure({ campaign: ["create"] })
    .input(campaignInput)
    .mutation(({ ctx, input }) => createCampaign(ctx, input)),

  update: orgProcedure({ campaign: ["update"] })
    .input(z.object({ id: z.string().min(1), data: campaignInput }))
    .mutation(({ ctx, input }) => saveCampaign(ctx, input.id, input.data)),

  delete: orgProcedure({ campaign: ["delete"] })
    .input(idInput)
    .mutation(({ ctx, input }) => removeCampaign(ctx, input.id)),

  /** SPEC's toggleStatus: active ⇄ paused; any other state is refused with what it allows. */
  toggleStatus: orgProcedure({ campaign: ["update"] })
    .input(idInput)
    .mutation(({ ctx, input }) => toggleCampaign(ctx, input.id)),

  setStatus: orgProcedure({ campaign: ["update"] })
    .input(z.object({ id: z.string().min(1), action: z.enum(campaignActions) }))
    .mutation(({ ctx, input }) => setCampaignStatus(ctx, input.id, input.action)),

  /**
   * One batch of a bulk archive (decision 024): up to BULK_MAX_IDS ids, each decided as
   * setStatus "archive" would and skipped with the reason where it may not; one D1 batch per call.
   */
  bulkArchive: orgProcedure({ campaign: ["update"] })
    .input(z.object({ ids: bulkIds }))
    .mutation(({ ctx, input }) => bulkArchiveCampaigns(ctx, input.ids)),

  items: campaignItemsRouter,

  analytics: orgProcedure({ campaign: ["view"] })
    .input(
      z
        .object({
          id: z.string().min(1),
          days: z.number().int().min(0).max(3650).default(30),
          from: z.optional(calendarDay),
          to: z.optional(calendarDay),
          /** Every figure from the gifts themselves, none estimated (decision 037). */
          exact: z.boolean().optional(),
        })
        .superRefine(checkPeriod),
    )
    .query(({ ctx, input }) => analyticsOf(ctx, input.id, input)),

  /** The public page: no sign-in, no personal data beyond display names; anonymous donors hidden. */
  public: publicProcedure
    .input(z.object({ organizationSlug: z.string().min(1), slug: z.string().min(1) }))
    .query(({ ctx, input }) => publicCampaign(ctx.env, input.organizationSlug, input.slug)),
});
