import { reportPeriod } from "@core/period";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import * as React from "react";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Progress } from "~/components/ui/progress";
import { CampaignRevenueChart } from "~/features/campaigns/campaign-revenue-chart";
import { CampaignTabs } from "~/features/campaigns/campaign-tabs";
import { approx, EstimateNote, TopDonorsHeader } from "~/features/dashboard/estimates";
import { Kpi } from "~/features/dashboard/kpi";
import { PeriodPicker } from "~/features/dashboard/period-picker";
import { errorInfo, formatCount, formatDate, formatMoney, formatPercent } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

const route = getRouteApi("/_authed/campaigns/$campaignId/analytics");

const PERIODS = [
  { days: 1, label: "Today" },
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 0, label: "All" },
];

export function CampaignAnalyticsPage() {
  const tz = useTimeZone();
  const { campaignId } = route.useParams();
  const search = route.useSearch();
  const { days } = search;
  const period = reportPeriod(search);
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const campaign = useQuery(trpc.campaigns.byId.queryOptions({ id: campaignId }));
  // The period counts in the organization's days (worker/campaigns/analytics/service.ts). A large
  // campaign answers from its rollups, some figures as estimates marked ≈ (decision 037); "exact"
  // asks for every figure counted from the gifts, slower on such a campaign.
  const [exact, setExact] = React.useState(false);
  const q = useQuery(
    trpc.campaigns.analytics.queryOptions({ id: campaignId, ...period, ...(exact ? { exact } : {}) }),
  );
  const a = q.data;
  const money = (v: number) => formatMoney(v, a?.currency ?? "USD");
  const est = a?.estimated;
  const estimating = !!(est && Object.values(est).some(Boolean));
  return (
    <>
      <PageHeader
        title={campaign.data?.title ?? "Campaign"}
        description="Counted donations only: completed or partly refunded, live, not in the trash."
        actions={
          <PeriodPicker
            timeZone={tz}
            presets={PERIODS}
            days={days}
            period={period}
            onChange={(next) =>
              "days" in next
                ? navigate({ search: { days: next.days as 0 | 1 | 7 | 30 | 90 } })
                : navigate({ search: (s) => ({ ...s, ...next }) })
            }
          />
        }
      />
      <CampaignTabs campaignId={campaignId} />
      {q.error ? (
        <p role="alert" className="text-destructive">
          {errorInfo(q.error).message}
        </p>
      ) : null}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Kpi
          label="Raised"
          value={a ? money(a.raisedMinor) : "…"}
          change={a?.change ? a.change.raised : undefined}
        />
        <Kpi
          label="Donations"
          value={a ? formatCount(a.donations) : "…"}
          change={a?.change ? a.change.donations : undefined}
        />
        <Kpi
          label="Unique donors"
          value={a ? approx(est?.uniqueDonors, formatCount(a.uniqueDonors)) : "…"}
          change={a?.change ? a.change.donors : undefined}
        />
        <Kpi
          label="Average / median"
          value={a ? `${money(a.averageMinor)} / ${approx(est?.median, money(a.medianMinor))}` : "…"}
          change={a?.change ? a.change.average : undefined}
        />
        <Kpi
          label="Refunds"
          value={
            a ? (
              <span className="flex flex-col">
                {money(a.refunds.amountMinor)}
                <span className="font-normal text-muted-foreground text-sm">
                  {formatCount(a.refunds.count)} {a.refunds.count === 1 ? "donation" : "donations"} refunded
                </span>
              </span>
            ) : (
              "…"
            )
          }
          change={a?.change ? a.change.refunds : undefined}
        />
      </div>
      <EstimateNote
        estimating={estimating}
        exact={exact}
        onExactChange={setExact}
        errorBounds={a?.errorBounds}
      />
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Revenue</CardTitle>
          </CardHeader>
          <CardContent>
            {a ? <CampaignRevenueChart series={a.series} currency={a.currency} bucket={a.bucket} /> : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Goal and items</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3 text-sm">
            {a?.goal !== null && a?.goal !== undefined ? (
              <div>
                <div className="flex justify-between">
                  <span>
                    Goal:{" "}
                    {campaign.data?.goalType === "amount"
                      ? money(campaign.data.goalAmountMinor ?? 0)
                      : `${campaign.data?.goalCount ?? ""} ${campaign.data?.goalType ?? ""}`}
                  </span>
                  <span className="tabular-nums">{formatPercent(a.goal)}</span>
                </div>
                <Progress value={Math.min(100, a.goal * 100)} aria-label="Goal progress" />
              </div>
            ) : (
              <p className="text-muted-foreground">No goal set.</p>
            )}
            {a?.items.map((i) => (
              <div key={i.id}>
                <div className="flex justify-between">
                  <span>{i.title}</span>
                  <span className="tabular-nums">
                    {i.funded}
                    {i.needed ? ` / ${i.needed}` : ""}
                  </span>
                </div>
                {i.needed ? (
                  <Progress
                    className="h-2"
                    value={Math.min(100, (i.funded / i.needed) * 100)}
                    aria-label={`${i.title} progress`}
                  />
                ) : null}
              </div>
            ))}
          </CardContent>
        </Card>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <TopDonorsHeader estimated={est?.topDonors} />
          <CardContent className="flex flex-col gap-2 text-sm">
            {a?.topDonors.length ? (
              a.topDonors.map((d) => (
                <Link
                  key={d.id}
                  to="/donors/$donorId"
                  params={{ donorId: d.id }}
                  className="flex justify-between hover:underline"
                >
                  <span>{d.name || d.company}</span>
                  <span className="tabular-nums">{money(d.total)}</span>
                </Link>
              ))
            ) : (
              <p className="text-muted-foreground">No donors in this period.</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Recent donations</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            {/* The campaign's latest gifts, whatever the period (an empty card says so, as Top donors does). */}
            {a && a.recent.length === 0 ? (
              <p className="text-muted-foreground">No donations to this campaign yet.</p>
            ) : null}
            {a?.recent.map((r) => (
              <Link
                key={r.id}
                to="/donations/$donationId"
                params={{ donationId: r.id }}
                className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1 hover:underline"
              >
                <span>
                  #{r.number} {r.name}
                </span>
                <span className="flex items-center gap-2">
                  <StatusBadge status={r.status} />
                  <span className="tabular-nums">{formatMoney(r.amount, r.currency)}</span>
                  <span className="text-muted-foreground">{formatDate(r.at, tz)}</span>
                </span>
              </Link>
            ))}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
