import { createFileRoute } from "@tanstack/react-router";
import { UserDetail } from "~/features/admin/user-detail";
import { ExportOrganizerButton } from "~/features/organizers/export-organizer";
import { OrganizerCampaigns } from "~/features/organizers/organizer-campaigns";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/organizers/$organizerId/")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Organizer · Almoner" }] }),
  component: () => {
    const { organizerId } = Route.useParams();
    return (
      <>
        <div className="flex justify-end">
          <ExportOrganizerButton userId={organizerId} />
        </div>
        <UserDetail userId={organizerId} />
        <OrganizerCampaigns userId={organizerId} />
      </>
    );
  },
});
