import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/dashboard")({
  head: () => ({ meta: [{ title: "Dashboard · Almoner" }] }),
  component: () => <PlaceholderPage title="Dashboard" description="Fundraising at a glance." />,
});
