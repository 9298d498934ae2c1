import { getRouteApi } from "@tanstack/react-router";
import { ExportOrganizerButton } from "~/features/organizers/export-organizer";
import { OrganizerCampaigns } from "~/features/organizers/organizer-campaigns";
import { UserDetail } from "~/features/users/user-detail";

const route = getRouteApi("/_authed/organizers/$organizerId/");

export function OrganizerPage() {
  const { organizerId } = route.useParams();
  return (
    <>
      <div className="flex justify-end">
        <ExportOrganizerButton userId={organizerId} />
      </div>
      <UserDetail userId={organizerId} />
      <OrganizerCampaigns userId={organizerId} />
    </>
  );
}
