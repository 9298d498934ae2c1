import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/donors/")({
  head: () => ({ meta: [{ title: "Donors · Almoner" }] }),
  component: () => (
    <PlaceholderPage title="Donors" description="Everyone who has given to your organization." />
  ),
});
