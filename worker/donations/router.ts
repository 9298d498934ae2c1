// donations.* (DESIGN §4): the rules are in service.ts and list.ts, the SQL in the queries.
import { bulkIds } from "@core/bulk";
import { donationChanges, manualDonationInput } from "@core/donation";
import { donationStatuses } from "@core/status";
import { z } from "zod";
import { orgProcedure, router } from "../trpc/init";
import { donationFilters, donationListInput } from "./filters";
import { listDonations, matchingDonationIds } from "./list";
import {
  bulkChangeStatus,
  bulkTrash,
  changeStatus,
  createDonation,
  deleteDonation,
  getDonation,
  history,
  restoreDonation,
  trashPreview,
  updateDonation,
} from "./service";

const byId = z.object({ id: z.string().min(1) });

export const donationsRouter = router({
  list: orgProcedure({ donation: ["view"] })
    .input(donationListInput)
    .query(({ ctx, input }) => listDonations(ctx, input)),

  /** "Select all N matching" (decision 024): only for those who may act on them in bulk. */
  matchingIds: orgProcedure({ donation: ["update"] })
    .input(donationFilters)
    .query(({ ctx, input }) => matchingDonationIds(ctx, input)),

  byId: orgProcedure({ donation: ["view"] })
    .input(byId)
    .query(({ ctx, input }) => getDonation(ctx, input.id)),

  create: orgProcedure({ donation: ["create"] })
    .input(manualDonationInput)
    .mutation(({ ctx, input }) => createDonation(ctx, input)),

  update: orgProcedure({ donation: ["update"] })
    .input(z.object({ id: z.string().min(1), data: donationChanges }))
    .mutation(({ ctx, input }) => updateDonation(ctx, input.id, input.data)),

  /** Refused transitions answer 422 with the allowed targets. */
  updateStatus: orgProcedure({ donation: ["update"] })
    .input(
      z.object({
        id: z.string().min(1),
        status: z.enum(donationStatuses),
        refundAmountMinor: z.number().int().positive().optional(),
        reason: z.string().trim().max(500).optional(),
        /** Platform admins only: any status, also out of a terminal one, with a mandatory reason. */
        correction: z.boolean().default(false),
        /** Left out, the organization's "send automatically" setting decides. */
        notifyDonor: z.boolean().optional(),
      }),
    )
    .mutation(({ ctx, input }) => changeStatus(ctx, input)),

  /** One batch of a bulk status change (decision 024): each id decided as updateStatus would. */
  bulkUpdateStatus: orgProcedure({ donation: ["update"] })
    .input(
      z.object({
        ids: bulkIds,
        status: z.enum(donationStatuses),
        reason: z.string().trim().max(500).optional(),
      }),
    )
    .mutation(({ ctx, input }) => bulkChangeStatus(ctx, input)),

  delete: orgProcedure({ donation: ["delete"] })
    .input(z.object({ id: z.string().min(1), permanent: z.boolean().default(false) }))
    .mutation(({ ctx, input }) => deleteDonation(ctx, input.id, input.permanent)),

  /** How many of a selection's gifts have a receipt "Move to trash" will void. */
  trashPreview: orgProcedure({ donation: ["delete"] })
    .input(z.union([z.object({ ids: bulkIds }).strict(), z.object({ matching: donationFilters }).strict()]))
    .query(({ ctx, input }) => trashPreview(ctx, input)),

  /** One batch of "Move to trash" on a selection (decision 024). */
  bulkDelete: orgProcedure({ donation: ["delete"] })
    .input(z.object({ ids: bulkIds }).strict())
    .mutation(({ ctx, input }) => bulkTrash(ctx, input.ids)),

  restore: orgProcedure({ donation: ["delete"] })
    .input(byId)
    .mutation(({ ctx, input }) => restoreDonation(ctx, input.id)),

  history: orgProcedure({ donation: ["view"] })
    .input(z.object({ entityType: z.enum(["donation", "donor", "campaign"]), entityId: z.string().min(1) }))
    .query(({ ctx, input }) => history(ctx, input.entityType, input.entityId)),
});
