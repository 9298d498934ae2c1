/**
 * donations.* (DESIGN §4): input schema, guard rung, one service call per procedure
 * (docs/architecture.md). The rules are in service.ts and list.ts, the SQL in the queries.
 */
import { bulkIds } from "@core/bulk";
import { donationChanges, manualDonationInput } from "@core/donation";
import { donationStatuses } from "@core/status";
import { z } from "zod";
import { orgProcedure, router } from "../trpc/init";
import { donationFilters, donationListInput } from "./filters";
import { listDonations, matchingDonationIds } from "./list";
import {
  bulkChangeStatus,
  changeStatus,
  createDonation,
  deleteDonation,
  getDonation,
  history,
  restoreDonation,
  updateDonation,
} from "./service";

const byId = z.object({ id: z.string().min(1) });

export const donationsRouter = router({
  list: orgProcedure({ donation: ["view"] })
    .input(donationListInput)
    .query(({ ctx, input }) => listDonations(ctx, input)),

  /**
   * "Select all N matching" (decision 024): the ids the list's filters match now, at most
   * MATCHING_MAX (more is a 422). Only for those who may act on them in bulk.
   */
  matchingIds: orgProcedure({ donation: ["update"] })
    .input(donationFilters)
    .query(({ ctx, input }) => matchingDonationIds(ctx, input)),

  byId: orgProcedure({ donation: ["view"] })
    .input(byId)
    .query(({ ctx, input }) => getDonation(ctx, input.id)),

  /** Manual/offline gifts (cash, check, bank transfer) by those with donation:create. */
  create: orgProcedure({ donation: ["create"] })
    .input(manualDonationInput)
    .mutation(({ ctx, input }) => createDonation(ctx, input)),

  update: orgProcedure({ donation: ["update"] })
    .input(z.object({ id: z.string().min(1), data: donationChanges }))
    .mutation(({ ctx, input }) => updateDonation(ctx, input.id, input.data)),

  /** The status machine of DESIGN §4; refused transitions answer 422 with the allowed targets. */
  updateStatus: orgProcedure({ donation: ["update"] })
    .input(
      z.object({
        id: z.string().min(1),
        status: z.enum(donationStatuses),
        refundAmountMinor: z.number().int().positive().optional(),
        reason: z.string().trim().max(500).optional(),
        /**
         * Platform admins only: set any status, also out of a terminal one (domain.md §2.5
         * "correction"), with a mandatory reason. The refunded amount follows the new status: all
         * of it for refunded, `refundAmountMinor` (the total) for partially refunded, else none.
         */
        correction: z.boolean().default(false),
      }),
    )
    .mutation(({ ctx, input }) => changeStatus(ctx, input)),

  /**
   * One batch of a bulk status change (decision 024): up to BULK_MAX_IDS ids, each decided as
   * updateStatus would and skipped with the reason where it may not move; one D1 batch per call.
   */
  bulkUpdateStatus: orgProcedure({ donation: ["update"] })
    .input(
      z.object({
        ids: bulkIds,
        status: z.enum(donationStatuses),
        reason: z.string().trim().max(500).optional(),
      }),
    )
    .mutation(({ ctx, input }) => bulkChangeStatus(ctx, input)),

  /** To the trash (restorable); platform admins may delete permanently. */
  delete: orgProcedure({ donation: ["delete"] })
    .input(z.object({ id: z.string().min(1), permanent: z.boolean().default(false) }))
    .mutation(({ ctx, input }) => deleteDonation(ctx, input.id, input.permanent)),

  restore: orgProcedure({ donation: ["delete"] })
    .input(byId)
    .mutation(({ ctx, input }) => restoreDonation(ctx, input.id)),

  history: orgProcedure({ donation: ["view"] })
    .input(z.object({ entityType: z.enum(["donation", "donor", "campaign"]), entityId: z.string().min(1) }))
    .query(({ ctx, input }) => history(ctx, input.entityType, input.entityId)),
});
