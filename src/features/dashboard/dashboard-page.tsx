import { donorLabel, paymentMethodLabel } from "@core/labels";
import { reportPeriod } from "@core/period";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { NativeSelect } from "~/components/ui/native-select";
import { Skeleton } from "~/components/ui/skeleton";
import { RevenueChart } from "~/features/charts/revenue-chart";
import { approx, EstimateNote, TopDonorsHeader } from "~/features/dashboard/estimates";
import { Kpi, PERIODS } from "~/features/dashboard/kpi";
import { PeriodPicker } from "~/features/dashboard/period-picker";
import { PlatformOverview } from "~/features/dashboard/platform-overview";
import { COUNTED_FILTER } from "~/features/donations/search";
import { OrganizationSwitcher } from "~/features/organization/organization-switcher";
import { RecurringTile } from "~/features/plans/recurring-tile";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatDate, formatMoney, formatPercent } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

const route = getRouteApi("/_authed/dashboard");

export function DashboardPage() {
  const search = route.useSearch();
  const { days, currency, scope, forbidden } = search;
  const period = reportPeriod(search);
  const admin = useCan().platformAdmin;
  const navigate = route.useNavigate();
  React.useEffect(() => {
    if (!forbidden) return;
    toast.error("That page is for platform admins.");
    void navigate({ search: (s) => ({ ...s, forbidden: undefined }), replace: true });
  }, [forbidden, navigate]);
  const all = admin && scope === "all";
  // Periods count in the organization's days (the all-organizations view in UTC days).
  const orgZone = useTimeZone();
  const timeZone = all ? "UTC" : orgZone;
  return (
    <>
      <PageHeader
        title="Dashboard"
        description={all ? "Every organization on the platform." : "Fundraising at a glance."}
        actions={
          <>
            {admin ? (
              <NativeSelect
                aria-label="Organizations"
                value={all ? "all" : "one"}
                onChange={(e) =>
                  navigate({ search: (s) => ({ ...s, scope: e.target.value === "all" ? "all" : undefined }) })
                }
              >
                <option value="one">One organization</option>
                <option value="all">All organizations</option>
              </NativeSelect>
            ) : null}
            {!all ? <OrganizationSwitcher /> : null}
            <PeriodPicker
              timeZone={timeZone}
              presets={PERIODS}
              days={days}
              period={period}
              onChange={(next) => navigate({ search: (s) => ({ ...s, ...next }) })}
            />
          </>
        }
      />
      {all ? (
        <PlatformOverview period={period} />
      ) : (
        <OrganizationDashboard period={period} currency={currency} />
      )}
    </>
  );
}

function OrganizationDashboard({
  period,
  currency,
}: {
  period: ReturnType<typeof reportPeriod>;
  currency?: string;
}) {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const navigate = route.useNavigate();
  // Figures come from rollups, some as estimates marked ≈ (decision 032); "exact" asks for every
  // figure computed from the gifts themselves, slower on a large organization.
  const [exact, setExact] = React.useState(false);
  const q = useQuery(
    trpc.dashboard.summary.queryOptions({ ...period, currency, ...(exact ? { exact } : {}) }),
  );
  const retention = useQuery(trpc.dashboard.retention.queryOptions(exact ? { exact } : undefined));
  const can = useCan();
  const d = q.data;
  const money = (v: number) => formatMoney(v, d?.currency ?? "USD");
  // Every tile opens /donations with the filters behind its number (domain.md §4.3).
  const range = d ? { from: d.from ?? undefined, to: d.to, currency: d.currency } : {};
  const counted = { ...range, ...COUNTED_FILTER };
  const r = retention.data;
  const prior = r ? { from: r.priorFrom, to: r.priorTo, ...COUNTED_FILTER } : {};
  const est = d?.estimated;
  const estimating = !!(est && Object.values(est).some(Boolean)) || !!r?.estimated;
  return (
    <>
      {q.error ? (
        <p role="alert" className="text-destructive">
          {errorInfo(q.error).message}
        </p>
      ) : null}
      {d && d.currencies.length > 1 ? (
        <label className="flex items-center gap-2 text-sm">
          Currency
          <NativeSelect
            aria-label="Currency"
            value={d.currency}
            onChange={(e) => navigate({ search: (s) => ({ ...s, currency: e.target.value }) })}
          >
            {d.currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
          <span className="text-muted-foreground">Amounts are never added across currencies.</span>
        </label>
      ) : null}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {d ? (
          <>
            <Kpi
              label="Raised"
              value={money(d.raisedMinor)}
              change={d.change.raised}
              to="/donations"
              search={counted}
            />
            <Kpi
              label="Donations"
              value={formatCount(d.donations)}
              change={d.change.donations}
              to="/donations"
              search={counted}
            />
            <Kpi
              label="Unique donors"
              value={approx(d.estimated.uniqueDonors, formatCount(d.uniqueDonors))}
              change={d.change.donors}
              to="/donations"
              search={counted}
            />
            <Kpi
              label="Average donation"
              value={money(d.averageMinor)}
              hint={approx(d.estimated.median, `Median ${money(d.medianMinor)}`)}
              to="/donations"
              search={{ ...counted, sort: "amount" }}
            />
            <Kpi
              // Gifts received in the period, not the plans' monthly revenue (the Recurring plans card).
              label="Recurring donations received"
              value={money(d.recurring.amountMinor)}
              hint={`${formatCount(d.recurring.count)} recurring donation${d.recurring.count === 1 ? "" : "s"} this period · ${formatCount(d.oneTime.count)} one-time (${money(d.oneTime.amountMinor)})`}
              to="/donations"
              search={{ ...counted, frequency: "recurring" }}
            />
            <Kpi
              label="Refunds"
              value={money(d.refunds.amountMinor)}
              hint={`${formatCount(d.refunds.count)} donation${d.refunds.count === 1 ? "" : "s"} refunded in part or in full`}
              to="/donations"
              search={{ ...range, mode: "live", status: ["partially_refunded", "refunded"] }}
            />
            <Kpi
              label="Retention"
              value={approx(r?.estimated, formatPercent(r?.rate))}
              hint={
                r
                  ? approx(
                      r.estimated,
                      `${formatCount(r.retained)} of ${formatCount(r.base)} donors of the previous 12 months gave again`,
                    )
                  : "…"
              }
              to="/donations"
              search={{ ...prior, segment: "retained" }}
            />
            <Kpi
              label="Lapsed donors"
              value={r ? approx(r.estimated, formatCount(r.lapsed)) : "…"}
              hint="Gave in the previous 12 months, not in the last 12"
              to="/donations"
              search={{ ...prior, segment: "lapsed" }}
            />
          </>
        ) : (
          Array.from({ length: 8 }, (_, i) => <Skeleton key={`k${i}`} className="h-24" />)
        )}
      </div>
      <EstimateNote
        estimating={estimating}
        exact={exact}
        onExactChange={setExact}
        errorBounds={d?.errorBounds}
      />
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="min-w-0 lg:col-span-2">
          <CardHeader>
            <CardTitle>Revenue</CardTitle>
            <CardDescription>
              Counted donations per {d?.bucket ?? "day"} in {d?.currency ?? "USD"}, net of refunds, in the
              organization's time zone.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {d ? (
              <RevenueChart series={d.series} currency={d.currency} bucket={d.bucket} />
            ) : (
              <Skeleton className="h-64" />
            )}
          </CardContent>
        </Card>
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Top campaigns</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            {d?.topCampaigns.length ? (
              d.topCampaigns.map((c) => (
                <Link
                  key={c.id}
                  to="/donations"
                  search={{ ...counted, campaignId: c.id }}
                  className="flex items-start justify-between gap-2 text-sm hover:underline"
                >
                  {/* A third of 1280 px is narrow: names wrap rather than lose their end. */}
                  <span className="min-w-0 [overflow-wrap:anywhere]">{c.title}</span>
                  <span className="shrink-0 tabular-nums">{formatMoney(c.raised, c.currency)}</span>
                </Link>
              ))
            ) : (
              <p className="text-muted-foreground text-sm">No campaign donations in this period.</p>
            )}
          </CardContent>
        </Card>
      </div>
      {/* Plans are giving (donation:view); without an organization no role holds it. */}
      {can({ donation: ["view"] }) ? <RecurringTile currency={d?.currency ?? currency} /> : null}
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="min-w-0">
          <TopDonorsHeader estimated={est?.topDonors} />
          <CardContent className="flex flex-col gap-3">
            {d?.topDonors.length ? (
              d.topDonors.map((x) => (
                <Link
                  key={x.id}
                  to="/donations"
                  search={{ ...counted, donorId: x.id }}
                  className="flex items-start justify-between gap-2 text-sm hover:underline"
                >
                  <span className="min-w-0 [overflow-wrap:anywhere]">{x.name || x.company}</span>
                  <span className="shrink-0 tabular-nums">{money(x.total)}</span>
                </Link>
              ))
            ) : (
              <p className="text-muted-foreground text-sm">No donors in this period.</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>By status</CardTitle>
            <CardDescription>Live donations of the period, counted or not.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            {d?.byStatus.length ? (
              d.byStatus.map((s) => (
                <Link
                  key={s.status}
                  to="/donations"
                  search={{ ...range, mode: "live", status: [s.status] } as never}
                  className="flex items-center justify-between hover:underline"
                >
                  <StatusBadge status={s.status} />
                  <span className="tabular-nums">{formatCount(s.count)}</span>
                </Link>
              ))
            ) : (
              <p className="text-muted-foreground">No donations in this period.</p>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>By payment method</CardTitle>
            <CardDescription>Counted donations, net of refunds.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            {d?.byMethod.length ? (
              d.byMethod.map((m) => (
                <Link
                  key={m.method}
                  to="/donations"
                  search={{ ...counted, paymentMethod: m.method }}
                  className="flex items-center justify-between hover:underline"
                >
                  <span>
                    {paymentMethodLabel(m.method)}{" "}
                    <span className="text-muted-foreground">({formatCount(m.count)})</span>
                  </span>
                  <span className="tabular-nums">{money(m.amount)}</span>
                </Link>
              ))
            ) : (
              <p className="text-muted-foreground">No counted donations in this period.</p>
            )}
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Recent donations</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="divide-y">
            {d?.recent.map((x) => (
              <li key={x.id}>
                <Link
                  to="/donations/$donationId"
                  params={{ donationId: x.id }}
                  className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm hover:underline"
                >
                  <span className="flex items-center gap-2">
                    <span className="text-muted-foreground">#{x.number}</span>
                    {donorLabel(x.donorName)}
                  </span>
                  <span className="flex items-center gap-3">
                    <StatusBadge status={x.status} />
                    <span className="tabular-nums">{formatMoney(x.amountMinor, x.currency)}</span>
                    <span className="text-muted-foreground">{formatDate(x.donatedAt, tz)}</span>
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
