import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/organizers/create")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "New organizer · Almoner" }] }),
  component: () => <PlaceholderPage title="New organizer" />,
});
