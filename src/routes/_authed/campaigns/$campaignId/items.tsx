import { createFileRoute } from "@tanstack/react-router";
import { CampaignItemsPage } from "~/features/campaigns/campaign-items-page";

export const Route = createFileRoute("/_authed/campaigns/$campaignId/items")({
  head: () => ({ meta: [{ title: "Campaign items · Almoner" }] }),
  component: CampaignItemsPage,
});
