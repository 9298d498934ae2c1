import { useQuery } from "@tanstack/react-query";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDateTime, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

/** The audit trail of one record (DESIGN §4): who did what, when, and on whose behalf. */
export function HistoryPanel({
  entityType,
  entityId,
}: {
  entityType: "donation" | "donor" | "campaign";
  entityId: string;
}) {
  const trpc = useTRPC();
  const q = useQuery(trpc.donations.history.queryOptions({ entityType, entityId }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>History</CardTitle>
      </CardHeader>
      <CardContent>
        {q.data?.length ? (
          <ol className="flex flex-col gap-3 border-l pl-4">
            {q.data.map((e) => (
              <li key={e.id} className="text-sm">
                <p className="font-medium">{titleCase(e.action.split(".")[1] ?? e.action)}</p>
                <p className="text-muted-foreground">
                  {e.actor ?? "System"}
                  {e.impersonator ? ` (impersonated by ${e.impersonator})` : ""} · {formatDateTime(e.at)}
                </p>
                {e.reason ? <p className="text-muted-foreground">Reason: {e.reason}</p> : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-muted-foreground text-sm">
            {q.isPending ? "Loading…" : "No changes recorded yet."}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
