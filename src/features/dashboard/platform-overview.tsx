/** Platform admins' dashboard: every organization at once, per currency (never summed across). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import { errorInfo, formatCount, formatMoney } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { Kpi } from "./kpi";

export function PlatformOverview({ period }: { period: { days?: number; from?: string; to?: string } }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const q = useQuery(trpc.dashboard.platform.queryOptions(period));
  const open = useMutation(
    trpc.organization.setActive.mutationOptions({
      onSuccess: async () => {
        // Every cached business query belonged to the previous tenant.
        await qc.invalidateQueries();
        await navigate({ to: "/dashboard", search: period });
      },
      onError: (e) => toast.error(errorInfo(e).message),
    }),
  );
  if (q.error)
    return (
      <p role="alert" className="text-destructive">
        {errorInfo(q.error).message}
      </p>
    );
  if (!q.data) return <Skeleton className="h-64" />;
  return (
    <>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {q.data.totals.length ? (
          q.data.totals.map((t) => (
            <Kpi
              key={t.currency}
              label={`Raised in ${t.currency}`}
              value={formatMoney(t.raised, t.currency)}
              hint={`${formatCount(t.count)} counted donations`}
            />
          ))
        ) : (
          <p className="col-span-full text-muted-foreground text-sm">No counted donations in this period.</p>
        )}
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Organizations</CardTitle>
          <CardDescription>
            By amount raised in the period; open one to see its dashboard and lists.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="divide-y">
            {q.data.organizations.map((o) => (
              <li
                key={`${o.id}-${o.currency}`}
                className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
              >
                <span className="min-w-0 truncate font-medium">{o.name}</span>
                <span className="flex items-center gap-3">
                  <span className="tabular-nums">{formatMoney(o.raised, o.currency)}</span>
                  <span className="text-muted-foreground tabular-nums">{formatCount(o.count)} donations</span>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={open.isPending}
                    onClick={() => open.mutate({ organizationId: o.id })}
                  >
                    Open
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </>
  );
}
