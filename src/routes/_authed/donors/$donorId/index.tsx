import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/donors/$donorId/")({
  head: () => ({ meta: [{ title: "Donor · Almoner" }] }),
  component: () => <PlaceholderPage title="Donor" />,
});
