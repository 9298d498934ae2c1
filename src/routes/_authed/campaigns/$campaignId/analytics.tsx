import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { dayParam, stripDefaults, withDefault } from "~/components/data-table/list-search";
import { CampaignAnalyticsPage } from "~/features/campaigns/campaign-analytics-page";

const analyticsSearch = z.object({
  days: withDefault(z.union([z.literal(1), z.literal(7), z.literal(30), z.literal(90), z.literal(0)]), 30),
  /** A custom period (both days, core/period.ts) instead of `days`. */
  from: dayParam,
  to: dayParam,
});

export const Route = createFileRoute("/_authed/campaigns/$campaignId/analytics")({
  validateSearch: analyticsSearch,
  search: stripDefaults(analyticsSearch),
  head: () => ({ meta: [{ title: "Campaign analytics · Almoner" }] }),
  component: CampaignAnalyticsPage,
});
