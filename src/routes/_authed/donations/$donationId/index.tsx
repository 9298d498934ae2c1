import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/donations/$donationId/")({
  head: () => ({ meta: [{ title: "Donation · Almoner" }] }),
  component: () => <PlaceholderPage title="Donation" />,
});
