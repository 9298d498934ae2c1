/** campaigns.*: input schema, rung, one service call (docs/architecture.md); the form's schema is core's. */
import { bulkIds } from "@core/bulk";
import { campaignInput } from "@core/campaign";
import { calendarDay, checkPeriod } from "@core/schemas";
import { z } from "zod";
import { orgProcedure, publicProcedure, router } from "../trpc/init";
import { analyticsOf } from "./analytics/service";
import { campaignFilters, campaignListInput } from "./filters";
import { campaignItemsRouter } from "./items/router";
import { previewCampaign, publicCampaign } from "./public/service";
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

  /** "Select all N matching" (decision 024), only for those who may archive them in bulk. */
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

  toggleStatus: orgProcedure({ campaign: ["update"] })
    .input(idInput)
    .mutation(({ ctx, input }) => toggleCampaign(ctx, input.id)),

  setStatus: orgProcedure({ campaign: ["update"] })
    .input(z.object({ id: z.string().min(1), action: z.enum(campaignActions) }))
    .mutation(({ ctx, input }) => setCampaignStatus(ctx, input.id, input.action)),

  /** A bulk archive call (decision 024): up to BULK_MAX_IDS ids, one D1 batch. */
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
  /** The same page for members of its organization, drafts and private campaigns included. */
  preview: orgProcedure({ campaign: ["view"] })
    .input(z.object({ organizationSlug: z.string().min(1), slug: z.string().min(1) }))
    .query(({ ctx, input }) => previewCampaign(ctx, input.organizationSlug, input.slug)),
});
