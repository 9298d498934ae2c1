import { createFileRoute } from "@tanstack/react-router";
import { OrganizerPage } from "~/features/organizers/organizer-page";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/organizers/$organizerId/")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Organizer · Almoner" }] }),
  component: OrganizerPage,
});
