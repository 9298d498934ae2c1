import { useInfiniteQuery } from "@tanstack/react-query";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import { errorInfo, formatDateTime } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";
import type { AuditEntityType } from "../../worker/users/audit/router";

/**
 * The audit trail of one record (DESIGN §4): what was done in a sentence, the fields an edit
 * changed, who did it on whose behalf and when (worker/users/audit/present.ts words them, decision
 * 052). Works for any audited entity of the current organization (`audit.list`); 50 per page.
 */
export function HistoryPanel({
  entityType,
  entityId,
  title = "History",
}: {
  entityType: AuditEntityType;
  entityId: string;
  title?: string;
}) {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const q = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(
      { entityType, entityId },
      { getNextPageParam: (last) => last.nextCursor },
    ),
  );
  const rows = q.data?.pages.flatMap((p) => p.rows) ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {q.isPending ? (
          <div className="flex flex-col gap-2" aria-busy="true">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
          </div>
        ) : q.error ? (
          <p role="alert" className="text-destructive text-sm">
            {errorInfo(q.error).message}
          </p>
        ) : rows.length ? (
          <ol className="flex flex-col gap-3 border-l pl-4">
            {rows.map((e) => (
              <li key={e.id} className="text-sm">
                <p className="font-medium">{e.sentence}</p>
                {e.changes.length ? (
                  <ul className="mt-1 flex flex-col gap-0.5 text-muted-foreground text-xs">
                    {e.changes.map((c) => (
                      <li key={c.field} className="break-words">
                        <span className="font-medium text-foreground">{c.label}</span>: {c.from} → {c.to}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {e.reason ? <p className="text-muted-foreground">Reason: {e.reason}</p> : null}
                <p className="text-muted-foreground text-xs">
                  {e.actor ?? "System"}
                  {e.impersonator ? ` (impersonated by ${e.impersonator})` : ""} ·{" "}
                  <time dateTime={new Date(e.at).toISOString()}>{formatDateTime(e.at, tz)}</time>
                  {e.ip ? ` · IP ${e.ip}` : ""}
                </p>
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-muted-foreground text-sm">No changes recorded yet.</p>
        )}
        {q.hasNextPage ? (
          <Button
            variant="ghost"
            size="sm"
            className="mt-3"
            disabled={q.isFetchingNextPage}
            onClick={() => void q.fetchNextPage()}
          >
            Show older
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
