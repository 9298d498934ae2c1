/**
 * dashboard.* (DESIGN §4 analytics): input schema, guard rung, one service call per procedure
 * (docs/architecture.md). The rules are in service.ts, the SQL in queries.ts.
 */
import { calendarDay, checkPeriod, currencyCode } from "@core/schemas";
import { z } from "zod";
import { adminProcedure, orgProcedure, router } from "../trpc/init";
import { dashboardRetention, dashboardSummary, platformSummary } from "./service";

const days = z.number().int().min(0).max(3650).default(30);
/** A custom period (core/period.ts) instead of `days`: both days, in order, at most ten years. */
const period = { from: z.optional(calendarDay), to: z.optional(calendarDay) };

export const dashboardRouter = router({
  /**
   * The dashboard in one currency (never sums across currencies): the organization's default
   * unless `currency` is given; `currencies` lists those with counted gifts. "Counted" is the one
   * definition of DESIGN §4 (COUNTED_SQL). The period is the last `days` local days including
   * today (0 = all time) and its change is against the `days` local days before it; or, with
   * `from`/`to`, those local days (both included, not after today) against the same number of days
   * just before `from`.
   */
  summary: orgProcedure({ donation: ["view"] })
    .input(
      z
        .object({ days, currency: z.optional(currencyCode), ...period, exact: z.optional(z.boolean()) })
        .superRefine(checkPeriod),
    )
    .query(({ ctx, input }) => dashboardSummary(ctx, input)),

  /**
   * Retention and lapsed donors over the windows of `retentionWindows` (retention.ts has the exact
   * definitions). It reads two years of gifts, so it has its own procedure and the dashboard's
   * tiles and chart never wait for it (docs/performance.md). Donor counts span currencies: a
   * donor is retained whatever currency they gave in.
   */
  retention: orgProcedure({ donation: ["view"] })
    .input(z.optional(z.object({ exact: z.optional(z.boolean()) })))
    .query(({ ctx, input }) => dashboardRetention(ctx, input)),

  /** Platform admins: every organization at once, per currency (never summed across currencies). */
  platform: adminProcedure({ user: ["list"] })
    .input(z.object({ days, ...period }).superRefine(checkPeriod))
    .query(({ ctx, input }) => platformSummary(ctx, input)),
});
