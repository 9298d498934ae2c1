import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/donations/")({
  head: () => ({ meta: [{ title: "Donations · Almoner" }] }),
  component: () => <PlaceholderPage title="Donations" description="Every gift, with its status." />,
});
