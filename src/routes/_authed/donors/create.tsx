import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";

export const Route = createFileRoute("/_authed/donors/create")({
  head: () => ({ meta: [{ title: "New donor · Almoner" }] }),
  component: () => <PlaceholderPage title="New donor" />,
});
