import { reportPeriod } from "@core/period";
import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { dayParam, enumParam, opt, stripDefaults, withDefault } from "~/components/data-table/list-search";
import { DashboardPage } from "~/features/dashboard/dashboard-page";

const dashboardSearch = z.object({
  days: withDefault(z.int(), 30),
  /** A custom period (both days, core/period.ts) instead of `days`. */
  from: dayParam,
  to: dayParam,
  currency: opt(z.string().check(z.length(3))),
  /** Platform admins: "all" shows every organization at once. */
  scope: enumParam(["all"]),
  forbidden: opt(z.boolean()),
});

export const Route = createFileRoute("/_authed/dashboard")({
  validateSearch: dashboardSearch,
  search: stripDefaults(dashboardSearch),
  loaderDeps: ({ search }) => ({
    period: reportPeriod(search),
    currency: search.currency,
    scope: search.scope,
  }),
  loader: ({ context, deps }) =>
    deps.scope === "all"
      ? context.queryClient.prefetchQuery(context.trpc.dashboard.platform.queryOptions(deps.period))
      : context.queryClient.prefetchQuery(
          context.trpc.dashboard.summary.queryOptions({ ...deps.period, currency: deps.currency }),
        ),
  head: () => ({ meta: [{ title: "Dashboard · Almoner" }] }),
  component: DashboardPage,
});
