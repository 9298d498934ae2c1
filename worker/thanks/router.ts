// thanks.* (decision 031): anyone in the organization reads the templates; owners and admins
// change them (organization:update), as with the receipt settings.
import { thankYouTemplateInput } from "@core/thanks";
import { z } from "zod";
import { orgProcedure, router } from "../trpc/init";
import { removeThankYouTemplate, saveThankYouTemplate, thankYouTemplates } from "./service";

export const thanksRouter = router({
  list: orgProcedure({ organization: ["view"] }).query(({ ctx }) => thankYouTemplates(ctx)),

  save: orgProcedure({ organization: ["update"] })
    .input(thankYouTemplateInput)
    .mutation(({ ctx, input }) => saveThankYouTemplate(ctx, input)),

  /** A campaign's gifts go back to the organization's message. */
  remove: orgProcedure({ organization: ["update"] })
    .input(z.object({ campaignId: z.string().min(1).max(64) }).strict())
    .mutation(({ ctx, input }) => removeThankYouTemplate(ctx, input.campaignId)),
});
