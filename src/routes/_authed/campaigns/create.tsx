import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/campaigns/create")({
  head: () => ({ meta: [{ title: "New campaign · Almoner" }] }),
  component: () => <PlaceholderPage title="New campaign" />,
});
