/**
 * thanks.* (issue 25, decision 031): input schema, rung and permissions, one service call. The
 * templates belong to the organization: anyone in it reads them, owners and admins change them
 * (organization:update), as the receipt settings.
 */
import { thankYouTemplateInput } from "@core/thanks";
import { z } from "zod";
import { orgProcedure, router } from "../trpc/init";
import { removeThankYouTemplate, saveThankYouTemplate, thankYouTemplates } from "./service";

export const thanksRouter = router({
  /** The organization's message (the default until saved) and each campaign's own. */
  list: orgProcedure({ organization: ["view"] }).query(({ ctx }) => thankYouTemplates(ctx)),

  /** Saves the organization's message (campaignId null) or a campaign's. */
  save: orgProcedure({ organization: ["update"] })
    .input(thankYouTemplateInput)
    .mutation(({ ctx, input }) => saveThankYouTemplate(ctx, input)),

  /** A campaign's gifts go back to the organization's message. */
  remove: orgProcedure({ organization: ["update"] })
    .input(z.object({ campaignId: z.string().min(1).max(64) }).strict())
    .mutation(({ ctx, input }) => removeThankYouTemplate(ctx, input.campaignId)),
});
