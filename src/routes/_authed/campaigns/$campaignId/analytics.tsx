import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/campaigns/$campaignId/analytics")({
  head: () => ({ meta: [{ title: "Campaign analytics · Almoner" }] }),
  component: () => <PlaceholderPage title="Campaign analytics" />,
});
