/** A donor's recurring plans on their page (issue 24): failing first, each opening its plan. */
import { EXPECTING } from "@core/plans";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Card, CardAction, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatDate, formatMoney } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";
import { NewPlanDialog } from "./new-plan-button";
import { daysLate, lateLabel, PlanStatusBadge, planAmount } from "./plan-bits";

/** Plans listed; a donor with more is sent to the list filtered to them. */
const SHOWN = 10;

export function DonorPlans({ donorId }: { donorId: string }) {
  const can = useCan();
  const tz = useTimeZone();
  const trpc = useTRPC();
  // The list's default sort, "risk", puts the plans that need attention first.
  const q = useQuery(trpc.plans.list.queryOptions({ donorId, pageSize: SHOWN }));
  const rows = q.data?.rows ?? [];
  const total = q.data?.total ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recurring plans</CardTitle>
        {/* A standing order or pledge this donor just set up, entered from where it was heard of. */}
        {can({ donation: ["create"] }) ? (
          <CardAction>
            <NewPlanDialog donorId={donorId} />
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        {q.error ? (
          <p role="alert" className="text-destructive text-sm">
            {errorInfo(q.error).message}
          </p>
        ) : !q.data ? (
          <p className="text-muted-foreground text-sm">Loading…</p>
        ) : (
          <ul className="divide-y">
            {rows.map((p) => {
              const late = EXPECTING.includes(p.status) ? daysLate(p.nextExpectedAt) : 0;
              return (
                <li key={p.id}>
                  <Link
                    to="/recurring/$planId"
                    params={{ planId: p.id }}
                    className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm hover:underline"
                  >
                    <span className="flex flex-wrap items-center gap-2">
                      <span className="font-medium tabular-nums">
                        {planAmount(p.amountMinor, p.currency, p.interval)}
                      </span>
                      <PlanStatusBadge status={p.status} />
                    </span>
                    <span className="flex flex-wrap items-center gap-x-3 text-muted-foreground">
                      <span className={late > 0 ? "text-red-700 dark:text-red-400" : undefined}>
                        {p.nextExpectedAt === null || p.status === "paused"
                          ? "No donation expected"
                          : `Next ${formatDate(p.nextExpectedAt, tz)}${late > 0 ? ` (${lateLabel(late)})` : ""}`}
                      </span>
                      <span className="tabular-nums">Given {formatMoney(p.givenMinor, p.currency)}</span>
                    </span>
                  </Link>
                </li>
              );
            })}
            {rows.length === 0 ? (
              <li className="py-2 text-muted-foreground text-sm">No recurring plans.</li>
            ) : null}
            {total > rows.length ? (
              <li className="pt-2 text-sm">
                <Link to="/recurring" search={{ donorId }} className="text-primary hover:underline">
                  All {total.toLocaleString("en-US")} plans of this donor
                </Link>
              </li>
            ) : null}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
