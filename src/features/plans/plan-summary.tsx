/**
 * The strip above /recurring (plans.summary): monthly recurring revenue, the plans counting in it,
 * those past due and the share of the last 30 days' revenue given through plans. Money is never
 * added across currencies, so the strip shows one: the list's currency filter, else the
 * organization's default, else the first with plans.
 */
import { useQuery } from "@tanstack/react-query";
import { Skeleton } from "~/components/ui/skeleton";
import { Kpi } from "~/features/dashboard/kpi";
import { errorInfo, formatCount, formatMoney, formatPercent } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { PlanMonths } from "./plan-months";

/** The share tile's period, in days (plans.summary `days`). */
const SHARE_DAYS = 30;

export function PlanSummary({
  currency,
  defaultCurrency,
}: {
  /** The list's currency filter. */
  currency: string | undefined;
  defaultCurrency: string | undefined;
}) {
  const trpc = useTRPC();
  // One month of series: the strip reads none of it, and the server builds every month it is asked.
  const q = useQuery(trpc.plans.summary.queryOptions({ months: 1, days: SHARE_DAYS }));
  if (q.error)
    return (
      <p role="alert" className="text-destructive text-sm">
        {errorInfo(q.error).message}
      </p>
    );
  if (!q.data)
    return (
      <section
        aria-label="Recurring revenue"
        aria-busy="true"
        className="grid grid-cols-2 gap-3 lg:grid-cols-4"
      >
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={`k${i}`} className="h-24" />
        ))}
      </section>
    );
  const all = q.data.currencies;
  const wanted = currency ?? defaultCurrency;
  const c = all.find((x) => x.currency === wanted) ??
    (currency ? undefined : all[0]) ?? {
      currency: wanted ?? "USD",
      mrrMinor: 0,
      activePlans: 0,
      pastDuePlans: 0,
      averageMonthlyMinor: 0,
      periodRaisedMinor: 0,
      periodPlanRaisedMinor: 0,
      planShare: null,
    };
  const money = (minor: number) => formatMoney(minor, c.currency);
  const others = all.filter((x) => x.currency !== c.currency && (x.activePlans || x.mrrMinor));
  // The tiles filter the list below; the currency stays, so the figures keep matching the rows.
  const show = (status: string[]) => ({ status, currency, page: 1 });
  return (
    <section aria-label="Recurring revenue" className="flex flex-col gap-2">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Kpi
          label="Monthly recurring revenue"
          value={money(c.mrrMinor)}
          hint={
            c.activePlans ? `Average ${money(c.averageMonthlyMinor)} a month per plan` : "No plan counts yet"
          }
        />
        <Kpi
          label="Active plans"
          value={formatCount(c.activePlans)}
          hint="Active and past due: both count in MRR"
          to="/recurring"
          search={show(["active", "past_due"])}
        />
        <Kpi
          label="Past due"
          value={formatCount(c.pastDuePlans)}
          hint={
            c.activePlans
              ? `${formatPercent(c.pastDuePlans / c.activePlans)} of active plans: a donation is late`
              : "A donation is late past the grace period"
          }
          to="/recurring"
          search={show(["past_due"])}
        />
        <Kpi
          label={`Given through plans, ${SHARE_DAYS} days`}
          value={formatPercent(c.planShare)}
          hint={
            c.periodRaisedMinor
              ? `${money(c.periodPlanRaisedMinor)} of ${money(c.periodRaisedMinor)} raised`
              : `Nothing raised in the last ${SHARE_DAYS} days`
          }
        />
      </div>
      {others.length ? (
        <p className="text-muted-foreground text-sm">
          Figures in {c.currency}; plans in {others.map((x) => x.currency).join(", ")} too. Amounts are never
          added across currencies: filter by currency to see theirs.
        </p>
      ) : null}
      <PlanMonths currency={c.currency} />
    </section>
  );
}
