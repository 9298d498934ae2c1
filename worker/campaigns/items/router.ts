/** campaigns.items.*: a campaign's items (service.ts holds the rules). */
import { campaignItemInput, campaignItemUpdate } from "@core/campaign";
import { z } from "zod";
import { orgProcedure, router } from "../../trpc/init";
import { createItem, editItem, listItems, removeItem, reorderItems } from "./service";

export const campaignItemsRouter = router({
  list: orgProcedure({ campaign: ["view"] })
    .input(z.object({ campaignId: z.string().min(1) }))
    .query(({ ctx, input }) => listItems(ctx, input.campaignId)),
  create: orgProcedure({ campaign: ["update"] })
    .input(campaignItemInput)
    .mutation(({ ctx, input }) => createItem(ctx, input)),
  update: orgProcedure({ campaign: ["update"] })
    .input(campaignItemUpdate)
    .mutation(({ ctx, input }) => editItem(ctx, input)),
  delete: orgProcedure({ campaign: ["update"] })
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ ctx, input }) => removeItem(ctx, input.id)),
  reorder: orgProcedure({ campaign: ["update"] })
    .input(z.object({ campaignId: z.string().min(1), ids: z.array(z.string().min(1)).min(1).max(500) }))
    .mutation(({ ctx, input }) => reorderItems(ctx, input.campaignId, input.ids)),
});
