/**
 * receipts.* (issue 25, decision 031): input schema, rung and permissions, one service call. The
 * settings belong to the organization: anyone in it reads them (the gift pages say whether
 * receipts go out on their own), owners and admins change them (organization:update).
 */
import { receiptSettingsInput } from "@core/receipts";
import { z } from "zod";
import { orgProcedure, router } from "../trpc/init";
import { donationReceipts } from "./service";
import { receiptSettings, updateReceiptSettings } from "./settings";

export const receiptsRouter = router({
  settings: orgProcedure({ organization: ["view"] }).query(({ ctx }) => receiptSettings(ctx)),

  /** A gift's receipts, voided ones included, and why it has none when it has none. */
  forDonation: orgProcedure({ donation: ["view"] })
    .input(z.object({ donationId: z.string().min(1).max(64) }).strict())
    .query(({ ctx, input }) => donationReceipts(ctx, input.donationId)),

  updateSettings: orgProcedure({ organization: ["update"] })
    .input(receiptSettingsInput)
    .mutation(({ ctx, input }) => updateReceiptSettings(ctx, input)),
});
