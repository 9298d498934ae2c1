import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/campaigns/$campaignId/")({
  head: () => ({ meta: [{ title: "Campaign · Almoner" }] }),
  component: () => <PlaceholderPage title="Campaign" />,
});
