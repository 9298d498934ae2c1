import { createFileRoute } from "@tanstack/react-router";
import { CampaignPage } from "~/features/campaigns/campaign-page";
import { or404 } from "~/lib/loaders";

export const Route = createFileRoute("/_authed/campaigns/$campaignId/")({
  loader: ({ context, params }) =>
    or404(
      context.queryClient.ensureQueryData(
        context.trpc.campaigns.byId.queryOptions({ id: params.campaignId }),
      ),
    ),
  head: () => ({ meta: [{ title: "Campaign · Almoner" }] }),
  component: CampaignPage,
});
