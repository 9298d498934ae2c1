import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { z } from "zod";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import { Tabs, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { RevenueChart } from "~/features/charts/revenue-chart";
import { Kpi, PERIODS } from "~/features/dashboard/kpi";
import { errorInfo, formatDate, formatMoney, formatPercent, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

export const Route = createFileRoute("/_authed/dashboard")({
  validateSearch: z.object({
    days: z.number().int().catch(30).default(30),
    forbidden: z.boolean().optional(),
  }),
  loaderDeps: ({ search }) => ({ days: search.days }),
  loader: ({ context, deps }) =>
    context.queryClient.prefetchQuery(context.trpc.dashboard.summary.queryOptions({ days: deps.days })),
  head: () => ({ meta: [{ title: "Dashboard · Almoner" }] }),
  component: Dashboard,
});

function Dashboard() {
  const { days, forbidden } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  React.useEffect(() => {
    if (!forbidden) return;
    toast.error("That page is for platform admins.");
    void navigate({ search: (s) => ({ ...s, forbidden: undefined }), replace: true });
  }, [forbidden, navigate]);
  const trpc = useTRPC();
  const q = useQuery(trpc.dashboard.summary.queryOptions({ days }));
  const retention = useQuery(trpc.dashboard.retention.queryOptions());
  const d = q.data;
  const money = (v: number) => formatMoney(v, d?.currency ?? "USD");
  const range = d && days > 0 ? { from: d.from, to: d.to } : {};
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Fundraising at a glance."
        actions={
          <Tabs
            value={String(days)}
            onValueChange={(v) => navigate({ search: (s) => ({ ...s, days: Number(v) }) })}
          >
            <TabsList>
              {PERIODS.map((p) => (
                <TabsTrigger key={p.days} value={String(p.days)}>
                  {p.label}
                </TabsTrigger>
              ))}
            </TabsList>
          </Tabs>
        }
      />
      {q.error ? (
        <p role="alert" className="text-destructive">
          {errorInfo(q.error).message}
        </p>
      ) : null}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {d ? (
          <>
            <Kpi
              label="Raised"
              value={money(d.raisedMinor)}
              change={d.change.raised}
              to="/donations"
              search={{ ...range, status: ["completed", "partially_refunded"] }}
            />
            <Kpi
              label="Donations"
              value={d.donations.toLocaleString("en-US")}
              change={d.change.donations}
              to="/donations"
              search={{ ...range, status: ["completed", "partially_refunded"] }}
            />
            <Kpi
              label="Unique donors"
              value={d.uniqueDonors.toLocaleString("en-US")}
              change={d.change.donors}
              to="/donors"
            />
            <Kpi label="Average / median gift" value={`${money(d.averageMinor)} / ${money(d.medianMinor)}`} />
          </>
        ) : (
          Array.from({ length: 4 }, (_, i) => <Skeleton key={`k${i}`} className="h-24" />)
        )}
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Revenue</CardTitle>
            <CardDescription>
              Counted gifts per day in {d?.currency ?? "USD"}, net of refunds.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {d ? <RevenueChart series={d.series} currency={d.currency} /> : <Skeleton className="h-64" />}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Top campaigns</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            {d?.topCampaigns.length ? (
              d.topCampaigns.map((c) => (
                <Link
                  key={c.id}
                  to="/campaigns/$campaignId"
                  params={{ campaignId: c.id }}
                  className="flex items-center justify-between gap-2 text-sm hover:underline"
                >
                  <span className="truncate">{c.title}</span>
                  <span className="tabular-nums">{formatMoney(c.raised, c.currency)}</span>
                </Link>
              ))
            ) : (
              <p className="text-muted-foreground text-sm">No campaign gifts in this period.</p>
            )}
          </CardContent>
        </Card>
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card>
          <CardHeader>
            <CardTitle>Top donors</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            {d?.topDonors.length ? (
              d.topDonors.map((x) => (
                <Link
                  key={x.id}
                  to="/donors/$donorId"
                  params={{ donorId: x.id }}
                  className="flex items-center justify-between gap-2 text-sm hover:underline"
                >
                  <span className="truncate">{x.name || x.company}</span>
                  <span className="tabular-nums">{money(x.total)}</span>
                </Link>
              ))
            ) : (
              <p className="text-muted-foreground text-sm">No donors in this period.</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>By status and method</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            {d?.byStatus.map((s) => (
              <Link
                key={s.status}
                to="/donations"
                search={{ ...range, status: [s.status] } as never}
                className="flex items-center justify-between hover:underline"
              >
                <StatusBadge status={s.status} />
                <span className="tabular-nums">{s.count}</span>
              </Link>
            ))}
            <div className="my-1 border-t" />
            {d?.byMethod.map((m) => (
              <div key={m.method} className="flex items-center justify-between">
                <span>{titleCase(m.method)}</span>
                <span className="tabular-nums">{money(m.amount)}</span>
              </div>
            ))}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Retention</CardTitle>
            <CardDescription>Donors who gave 13–24 months ago and again in the last 12.</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="font-semibold text-3xl tabular-nums">{formatPercent(retention.data?.rate)}</p>
            <p className="text-muted-foreground text-sm">
              {retention.data ? `${retention.data.retained} of ${retention.data.base} donors` : "…"}
            </p>
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Recent donations</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="divide-y">
            {d?.recent.map((r) => (
              <li key={r.id}>
                <Link
                  to="/donations/$donationId"
                  params={{ donationId: r.id }}
                  className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm hover:underline"
                >
                  <span className="flex items-center gap-2">
                    <span className="text-muted-foreground">#{r.number}</span>
                    {r.donorName || "No donor"}
                  </span>
                  <span className="flex items-center gap-3">
                    <StatusBadge status={r.status} />
                    <span className="tabular-nums">{formatMoney(r.amountMinor, r.currency)}</span>
                    <span className="text-muted-foreground">{formatDate(r.donatedAt)}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </>
  );
}
