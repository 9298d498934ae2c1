import { createFileRoute } from "@tanstack/react-router";
import { CampaignCreatePage } from "~/features/campaigns/campaign-create-page";

export const Route = createFileRoute("/_authed/campaigns/create")({
  head: () => ({ meta: [{ title: "New campaign · Almoner" }] }),
  component: CampaignCreatePage,
});
