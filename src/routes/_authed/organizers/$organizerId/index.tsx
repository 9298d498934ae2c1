import { createFileRoute } from "@tanstack/react-router";
import { UserDetail } from "~/features/admin/user-detail";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/organizers/$organizerId/")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Organizer · Almoner" }] }),
  component: () => <UserDetail userId={Route.useParams().organizerId} />,
});
