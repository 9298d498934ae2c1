import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/donations/$donationId/edit")({
  head: () => ({ meta: [{ title: "Edit donation · Almoner" }] }),
  component: () => <PlaceholderPage title="Edit donation" />,
});
