import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/campaigns/")({
  head: () => ({ meta: [{ title: "Campaigns · Almoner" }] }),
  component: () => <PlaceholderPage title="Campaigns" description="Your fundraising campaigns." />,
});
