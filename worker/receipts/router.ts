/**
 * receipts.* (decision 031): anyone in the organization reads the settings, owners and admins change
 * them (organization:update); sending anything takes `receipt:send` (owners, admins, organizers).
 */
import {
  RECEIPT_BULK_MAX,
  receiptSettingsInput,
  STATEMENT_YEAR_MAX,
  STATEMENT_YEAR_MIN,
  statementBases,
} from "@core/receipts";
import { z } from "zod";
import { orgProcedure, router } from "../trpc/init";
import { sendDonationReceipt, sendReceiptsFor, sendThanks } from "./delivery";
import { donationReceipts } from "./service";
import { receiptSettings, updateReceiptSettings } from "./settings";
import {
  sendTestStatement,
  startStatementRun,
  statementPreview,
  statementRuns,
  statementYears,
  stepStatementRun,
} from "./statements";

const id = z.string().min(1).max(64);
const donation = z.object({ donationId: id }).strict();
const period = z
  .object({
    year: z.number().int().min(STATEMENT_YEAR_MIN).max(STATEMENT_YEAR_MAX),
    basis: z.enum(statementBases),
  })
  .strict();

export const receiptsRouter = router({
  settings: orgProcedure({ organization: ["view"] }).query(({ ctx }) => receiptSettings(ctx)),

  /** A gift's receipts, voided ones included, what was e-mailed, and why it has none when it has none. */
  forDonation: orgProcedure({ donation: ["view"] })
    .input(donation)
    .query(({ ctx, input }) => donationReceipts(ctx, input.donationId)),

  updateSettings: orgProcedure({ organization: ["update"] })
    .input(receiptSettingsInput)
    .mutation(({ ctx, input }) => updateReceiptSettings(ctx, input)),

  /** E-mail a gift's receipt with the thank-you, now (again, if it was sent before). */
  send: orgProcedure({ receipt: ["send"] })
    .input(donation)
    .mutation(({ ctx, input }) => sendDonationReceipt(ctx, input.donationId)),

  /** E-mail the thank-you alone. */
  sendThanks: orgProcedure({ receipt: ["send"] })
    .input(donation)
    .mutation(({ ctx, input }) => sendThanks(ctx, input.donationId)),

  /** "Send receipts" on the donations list's selection: per gift, sent or skipped and why. */
  sendMany: orgProcedure({ receipt: ["send"] })
    .input(
      z
        .object({
          ids: z
            .array(id)
            .min(1, "Choose at least one row")
            .max(RECEIPT_BULK_MAX, `At most ${RECEIPT_BULK_MAX} rows per call`)
            .transform((ids) => [...new Set(ids)]),
          resend: z.boolean().default(false),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => sendReceiptsFor(ctx, input.ids, input.resend)),

  /** The years a donor's page offers a statement for. */
  statementYears: orgProcedure({ receipt: ["view"], donor: ["view"] })
    .input(z.object({ donorId: id }).strict())
    .query(({ ctx, input }) => statementYears(ctx, input.donorId)),

  statementRuns: orgProcedure({ receipt: ["send"] }).query(({ ctx }) => statementRuns(ctx)),

  /** Before a run: how many donors it would e-mail, and whether the year is over. */
  statementPreview: orgProcedure({ receipt: ["send"] })
    .input(period)
    .query(({ ctx, input }) => statementPreview(ctx, input.year, input.basis)),

  /** The period's first statement e-mailed to the person asking, marked as a test. */
  testStatement: orgProcedure({ receipt: ["send"] })
    .input(period)
    .mutation(({ ctx, input }) => sendTestStatement(ctx, input.year, input.basis)),

  /** Start (or resume) e-mailing every donor their statement for a year. */
  startStatements: orgProcedure({ receipt: ["send"] })
    .input(period)
    .mutation(({ ctx, input }) => startStatementRun(ctx, input.year, input.basis)),

  /** The next donors of a run: the portal calls it until the run is finished. */
  stepStatements: orgProcedure({ receipt: ["send"] })
    .input(z.object({ runId: id }).strict())
    .mutation(({ ctx, input }) => stepStatementRun(ctx, input.runId)),
});
