// dashboard.* (DESIGN §4): the rules are in service.ts, the SQL in queries.ts.
import { calendarDay, checkPeriod, currencyCode } from "@core/schemas";
import { z } from "zod";
import { adminProcedure, orgProcedure, router } from "../trpc/init";
import { dashboardRetention, dashboardSummary, platformSummary } from "./service";

const days = z.number().int().min(0).max(3650).default(30);
/** A custom period (core/period.ts) instead of `days`: both days, in order, at most ten years. */
const period = { from: z.optional(calendarDay), to: z.optional(calendarDay) };

export const dashboardRouter = router({
  /** One currency, never summed across currencies; `days` 0 is all time. */
  summary: orgProcedure({ donation: ["view"] })
    .input(
      z
        .object({ days, currency: z.optional(currencyCode), ...period, exact: z.optional(z.boolean()) })
        .superRefine(checkPeriod),
    )
    .query(({ ctx, input }) => dashboardSummary(ctx, input)),

  // Its own procedure: it reads two years of gifts, and the tiles and chart never wait for it.
  // Donor counts span currencies: a donor is retained whatever currency they gave in.
  retention: orgProcedure({ donation: ["view"] })
    .input(z.optional(z.object({ exact: z.optional(z.boolean()) })))
    .query(({ ctx, input }) => dashboardRetention(ctx, input)),

  platform: adminProcedure({ user: ["list"] })
    .input(z.object({ days, ...period }).superRefine(checkPeriod))
    .query(({ ctx, input }) => platformSummary(ctx, input)),
});
