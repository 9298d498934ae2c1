import { createFileRoute } from "@tanstack/react-router";
import { CreateOrganizer } from "~/features/organizers/create-organizer";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/organizers/create")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "New organizer · Almoner" }] }),
  component: CreateOrganizer,
});
