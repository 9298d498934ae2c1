/**
 * The /reports URL state (issue 27; DESIGN §4: filters in the URL): which report, its filters and
 * the lapsed list's page. Built from core/report-filters.ts, whose pieces the reports.* inputs use
 * too (worker/reports/router.ts). A route's search schema loads with the route tree on every page
 * (docs/decisions/012): this module imports only what that chunk holds already (zod/mini,
 * ~/lib/search-params, core/schemas' currency, core/labels' value sets) and
 * core/report-filters.ts, which imports nothing else. A hand-edited or stale value falls back to
 * "no filter" instead of an error page.
 */
import { donationSources, frequencyFilters } from "@core/labels";
import {
  CHART_ALIGNS,
  COMPARE_MAX,
  LAPSED_KINDS,
  REPORT_VIEWS,
  reportId,
  reportMethod,
  reportYear,
  YEAR_BASES,
} from "@core/report-filters";
import { currencyCode } from "@core/schemas";
import { z } from "zod/mini";
import { dayParam, enumParam, listSearch, opt, withDefault } from "~/lib/search-params";

export const reportsSearch = z.extend(listSearch, {
  view: withDefault(z.enum(REPORT_VIEWS), "giving"),
  basis: withDefault(z.enum(YEAR_BASES), "calendar"),
  currency: opt(currencyCode),
  campaignId: opt(reportId),
  tierId: opt(reportId),
  tagId: opt(reportId),
  /** The gifts' own filters, as /donations spells them in its URL. */
  paymentMethod: opt(reportMethod),
  frequency: enumParam(frequencyFilters),
  source: enumParam(donationSources),
  fromYear: opt(reportYear),
  toYear: opt(reportYear),
  /** The pyramid's year. */
  year: opt(reportYear),
  kind: withDefault(z.enum(LAPSED_KINDS), "lybunt"),
  /** The campaigns compared (2 to COMPARE_MAX; fewer shows the picker only). */
  compare: opt(z.array(reportId).check(z.maxLength(COMPARE_MAX))),
  from: dayParam,
  to: dayParam,
  align: withDefault(z.enum(CHART_ALIGNS), "start"),
});
export type ReportsSearch = z.infer<typeof reportsSearch>;
