import { createFileRoute } from "@tanstack/react-router";
import { CampaignsPage } from "~/features/campaigns/campaigns-page";
import { campaignsSearch } from "~/features/campaigns/search";

export const Route = createFileRoute("/_authed/campaigns/")({
  validateSearch: campaignsSearch,
  head: () => ({ meta: [{ title: "Campaigns · Almoner" }] }),
  component: CampaignsPage,
});
