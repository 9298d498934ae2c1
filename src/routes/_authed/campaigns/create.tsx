import { createFileRoute } from "@tanstack/react-router";
import { CampaignCreatePage } from "~/features/campaigns/campaign-create-page";
import { requireCan } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/campaigns/create")({
  beforeLoad: ({ context }) => requireCan(context, { campaign: ["create"] }, "/campaigns"),
  head: () => ({ meta: [{ title: "New campaign · Almoner" }] }),
  component: CampaignCreatePage,
});
