/**
 * reports.* (issue 27, the fundraising reports at /reports): input schema, guard rung, one service
 * call per procedure (docs/architecture.md), as worker/analytics/router.ts. Whoever may see the
 * donations may read the reports (viewers too); the lapsed donors' CSV is an export, with the
 * export right and the donors' view right. The definitions are core/reports.ts's; the rules in
 * service.ts, the SQL in queries.ts.
 */

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

/** The filters of every report (as the /donors and /donations lists filter): one currency at a time. */
const filters = {
  basis: z.enum(YEAR_BASES).default("calendar"),
  /** The organization's default currency when absent; any supported one, with gifts or not. */
  currency: z.optional(currencyCode),
  campaignId: z.optional(reportId),
  tierId: z.optional(reportId),
  tagId: z.optional(reportId),
  /** The gifts' own filters, as /donations has them. */
  paymentMethod: z.optional(reportMethod),
  frequency: z.optional(z.enum(frequencyFilters)),
  source: z.optional(z.enum(donationSources)),
};

/** `fromYear`..`toYear` in order and at most REPORT_YEARS_MAX long (a 400 otherwise, never a 500). */
function checkYears(v: { fromYear?: number; toYear?: number }, ctx: z.RefinementCtx) {
  const problem = yearRangeProblem(v);
  if (problem) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
}

const kind = z.enum(LAPSED_KINDS).default("lybunt");

/**
 * Rows per page of the lapsed donors' CSV: a 100 000-donor list in 20 calls of ≈ 1.3 MB (each call
 * aggregates the year again, ≈ 0.3 s at 1M donations: fewer, larger pages; decision 033).
 */
export const LAPSED_EXPORT_LIMIT = 5000;

export const reportsRouter = router({
  /** The currencies with counted gifts, the fiscal year's first month, today: what every report screen offers. */
  options: orgProcedure({ donation: ["view"] }).query(({ ctx }) => reportOptions(ctx)),

  /**
   * Giving by year, retention and recapture, and the cohort table over `fromYear`..`toYear`
   * (default: this year and the four before): one pass over the filtered gifts answers all three.
   */
  yearly: orgProcedure({ donation: ["view"] })
    .input(
      z
        .object({ ...filters, fromYear: z.optional(reportYear), toYear: z.optional(reportYear) })
        .strict()
        .superRefine(checkYears),
    )
    .query(({ ctx, input }) => yearlyReport(ctx, input)),

  /** One page of LYBUNT or SYBUNT donors, biggest givers of their last year first. */
  lapsed: orgProcedure({ donation: ["view"] })
    .input(
      z
        .object({ ...filters, kind, q: pageSchema.q, page: pageSchema.page, pageSize: pageSchema.pageSize })
        .strict(),
    )
    .query(({ ctx, input }) => lapsedReport(ctx, input)),

  /**
   * A mutation, like donors.exportPage: the first page writes the export's audit row. The export
   * right first (an impersonated session never holds it), then the donors' (names, e-mails).
   */
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

  /** The giving pyramid of one year (default: the current one so far). */
  pyramid: orgProcedure({ donation: ["view"] })
    .input(z.object({ ...filters, year: z.optional(reportYear) }).strict())
    .query(({ ctx, input }) => pyramidReport(ctx, input)),

  /** 2–4 campaigns of one currency side by side over the same local days (all time when absent). */
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
