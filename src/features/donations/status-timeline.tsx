import { StatusBadge } from "~/components/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDateTime, formatMoney } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";

interface TimelineEntry {
  at: number;
  kind: "recorded" | "status" | "trash" | "restore";
  status: string | null;
  refundedMinor: number | null;
  reason: string | null;
  actor: string | null;
}

const LABEL = { recorded: "Recorded", trash: "Moved to the trash", restore: "Restored", status: "Became" };

/** The donation's status over time, oldest first (from the audit log). */
export function StatusTimeline({ entries, currency }: { entries: TimelineEntry[]; currency: string }) {
  const tz = useTimeZone();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Timeline</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="relative flex flex-col gap-4 border-l pl-4">
          {entries.map((e, i) => (
            <li key={`${e.at}-${i}`} className="flex flex-col gap-1 text-sm">
              <span
                aria-hidden
                className="-left-[5px] absolute mt-1.5 size-2.5 rounded-full border-2 border-background bg-primary"
              />
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{LABEL[e.kind]}</span>
                {e.status ? <StatusBadge status={e.status} /> : null}
                {e.refundedMinor ? (
                  <span className="text-muted-foreground">
                    {formatMoney(e.refundedMinor, currency)} refunded in all
                  </span>
                ) : null}
              </span>
              <span className="text-muted-foreground text-xs">
                {formatDateTime(e.at, tz)}
                {e.actor ? ` · ${e.actor}` : ""}
              </span>
              {e.reason ? <span className="text-muted-foreground">“{e.reason}”</span> : null}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
