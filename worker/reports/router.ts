// reports.* (decision 033): whoever may see the donations reads the reports (viewers too); the lapsed
// donors' CSV is an export and also needs the donors' view right. Definitions are core/reports.ts's.

import { donationSources, frequencyFilters } from "@core/labels";
import {
  COMPARE_MAX,
  COMPARE_MIN,
  LAPSED_KINDS,
  reportId,
  reportMethod,
  reportYear,
  YEAR_BASES,
  yearRangeProblem,
} from "@core/report-filters";
import { calendarDay, checkPeriod, currencyCode } from "@core/schemas";
import { z } from "zod";
import { pageSchema } from "../lib/list";
import { orgProcedure, router } from "../trpc/init";
import {
  campaignComparison,
  lapsedExportPage,
  lapsedReport,
  pyramidReport,
  reportOptions,
  yearlyReport,
} from "./service";

/** As the /donors and /donations lists filter, one currency at a time. */
const filters = {
  basis: z.enum(YEAR_BASES).default("calendar"),
  /** The organization's default when absent; any supported currency, with gifts or not. */
  currency: z.optional(currencyCode),
  campaignId: z.optional(reportId),
  tierId: z.optional(reportId),
  tagId: z.optional(reportId),
  paymentMethod: z.optional(reportMethod),
  frequency: z.optional(z.enum(frequencyFilters)),
  source: z.optional(z.enum(donationSources)),
};

/** A bad range is a 400, never a 500. */
function checkYears(v: { fromYear?: number; toYear?: number }, ctx: z.RefinementCtx) {
  const problem = yearRangeProblem(v);
  if (problem) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
}

const kind = z.enum(LAPSED_KINDS).default("lybunt");

/** Large pages: each call of the lapsed donors' CSV aggregates the year again (decision 033). */
const LAPSED_EXPORT_LIMIT = 5000;

export const reportsRouter = router({
  options: orgProcedure({ donation: ["view"] }).query(({ ctx }) => reportOptions(ctx)),

  /** Giving by year, retention and recapture, and cohorts: one pass over the filtered gifts. */
  yearly: orgProcedure({ donation: ["view"] })
    .input(
      z
        .object({ ...filters, fromYear: z.optional(reportYear), toYear: z.optional(reportYear) })
        .strict()
        .superRefine(checkYears),
    )
    .query(({ ctx, input }) => yearlyReport(ctx, input)),

  lapsed: orgProcedure({ donation: ["view"] })
    .input(
      z
        .object({ ...filters, kind, q: pageSchema.q, page: pageSchema.page, pageSize: pageSchema.pageSize })
        .strict(),
    )
    .query(({ ctx, input }) => lapsedReport(ctx, input)),

  // A mutation, like donors.exportPage: the first page writes the export's audit row. The export right
  // comes first (an impersonated session never holds it), then the donors' (names, e-mails).
  lapsedExportPage: orgProcedure({ export: ["create"], donor: ["view"], donation: ["view"] })
    .input(
      z
        .object({
          ...filters,
          kind,
          q: pageSchema.q,
          after: z.string().min(3).max(200).optional(),
          limit: z.number().int().min(1).max(5000).default(LAPSED_EXPORT_LIMIT),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => lapsedExportPage(ctx, input)),

  pyramid: orgProcedure({ donation: ["view"] })
    .input(z.object({ ...filters, year: z.optional(reportYear) }).strict())
    .query(({ ctx, input }) => pyramidReport(ctx, input)),

  campaigns: orgProcedure({ donation: ["view"] })
    .input(
      z
        .object({
          campaignIds: z
            .array(reportId)
            .min(COMPARE_MIN, `Choose at least ${COMPARE_MIN} campaigns`)
            .max(COMPARE_MAX, `Compare at most ${COMPARE_MAX} campaigns`),
          currency: filters.currency,
          tierId: filters.tierId,
          tagId: filters.tagId,
          paymentMethod: filters.paymentMethod,
          frequency: filters.frequency,
          source: filters.source,
          from: z.optional(calendarDay),
          to: z.optional(calendarDay),
        })
        .strict()
        .superRefine(checkPeriod),
    )
    .query(({ ctx, input }) => campaignComparison(ctx, input)),
});
