import { useQuery } from "@tanstack/react-query";
import { StatusBadge } from "~/components/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDate } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

/** Campaigns an organizer created, across organizations (the organizer detail page). */
export function OrganizerCampaigns({ userId }: { userId: string }) {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const q = useQuery(trpc.organizers.campaigns.queryOptions({ userId }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Campaigns</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col divide-y text-sm">
        {q.data?.map((c) => (
          <div key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span className="min-w-0">
              <span className="font-medium">{c.title}</span>{" "}
              <span className="text-muted-foreground">
                · {c.organizationName} · {formatDate(c.createdAt, tz)}
              </span>
            </span>
            <StatusBadge status={c.status} />
          </div>
        ))}
        {q.data?.length === 0 ? <p className="text-muted-foreground">No campaigns yet.</p> : null}
      </CardContent>
    </Card>
  );
}
