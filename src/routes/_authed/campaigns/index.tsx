import { createFileRoute } from "@tanstack/react-router";
import { stripDefaults } from "~/components/data-table/list-search";
import { CampaignsPage } from "~/features/campaigns/campaigns-page";
import { campaignsSearch } from "~/features/campaigns/search";

export const Route = createFileRoute("/_authed/campaigns/")({
  validateSearch: campaignsSearch,
  search: stripDefaults(campaignsSearch),
  head: () => ({ meta: [{ title: "Campaigns · Almoner" }] }),
  component: CampaignsPage,
});
