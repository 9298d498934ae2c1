import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/donors/$donorId/edit")({
  head: () => ({ meta: [{ title: "Edit donor · Almoner" }] }),
  component: () => <PlaceholderPage title="Edit donor" />,
});
