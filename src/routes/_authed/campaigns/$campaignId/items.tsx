import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/campaigns/$campaignId/items")({
  head: () => ({ meta: [{ title: "Campaign items · Almoner" }] }),
  component: () => <PlaceholderPage title="Campaign items" />,
});
