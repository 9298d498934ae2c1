/**
 * campaigns.*: input schema, guard rung and one service call per procedure (docs/architecture.md).
 * The form's schema is core/campaign.ts (the portal's form parses the same one).
 */
import { campaignInput, campaignPhases } from "@core/campaign";
import { calendarDay, checkPeriod, enumSet } from "@core/schemas";
import { campaignStatuses } from "@core/status";
import { z } from "zod";
import { pageSchema } from "../lib/list";
import { orgProcedure, publicProcedure, router } from "../trpc/init";
import { analyticsOf } from "./analytics/service";
import { campaignItemsRouter } from "./items/router";
import { publicCampaign } from "./public/service";
import { CAMPAIGN_SORTS, type CampaignSort } from "./queries";
import {
  campaignActions,
  campaignById,
  createCampaign,
  listCampaigns,
  removeCampaign,
  saveCampaign,
  setCampaignStatus,
  toggleCampaign,
} from "./service";

const idInput = z.object({ id: z.string().min(1) });

export const campaignsRouter = router({
  list: orgProcedure({ campaign: ["view"] })
    .input(
      z.object({
        ...pageSchema,
        sort: z.enum(Object.keys(CAMPAIGN_SORTS) as [CampaignSort]).default("created"),
        status: z.optional(enumSet(campaignStatuses)),
        phase: z.optional(enumSet(campaignPhases)),
        goalReached: z.boolean().optional(),
        /** Campaigns running at some point between these local days (org time zone), inclusive. */
        from: z.optional(calendarDay),
        to: z.optional(calendarDay),
      }),
    )
    .query(({ ctx, input }) => listCampaigns(ctx, input)),

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

  items: campaignItemsRouter,

  analytics: orgProcedure({ campaign: ["view"] })
    .input(
      z
        .object({
          id: z.string().min(1),
          days: z.number().int().min(0).max(3650).default(30),
          from: z.optional(calendarDay),
          to: z.optional(calendarDay),
        })
        .superRefine(checkPeriod),
    )
    .query(({ ctx, input }) => analyticsOf(ctx, input.id, input)),

  /** The public page: no sign-in, no personal data beyond display names; anonymous donors hidden. */
  public: publicProcedure
    .input(z.object({ organizationSlug: z.string().min(1), slug: z.string().min(1) }))
    .query(({ ctx, input }) => publicCampaign(ctx.env.DB, input.organizationSlug, input.slug)),
});
