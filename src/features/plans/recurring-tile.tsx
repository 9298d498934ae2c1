/**
 * The dashboard's recurring giving (issue 24, plans.summary): monthly recurring revenue per
 * currency (never added across them), the plans counting in it, last full month's churn, and the
 * plans at risk (past due, the longest late first). Small on purpose: the dashboard's client JS has
 * a budget, so no chart here — /recurring has the rest.
 */
import { donorLabel } from "@core/labels";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowRight } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import { errorInfo, formatCount, formatMoney, formatPercent } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { daysLate, formatMonth, lateLabel, planAmount } from "./plan-words";

/**
 * Two months: the current one and the last full one, whose churn the tile shows (`days` only sizes
 * the plan share, which it does not show).
 */
const SUMMARY_INPUT = { months: 2, days: 30 } as const;

/** Plans at risk listed here; the rest are a click away on the filtered list. */
const AT_RISK_SHOWN = 5;

const linkClass = "inline-flex items-center gap-1 text-primary text-sm hover:underline";

export function RecurringTile({ currency }: { currency?: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.plans.summary.queryOptions(SUMMARY_INPUT));
  if (q.error)
    return (
      <p role="alert" className="text-destructive text-sm">
        {errorInfo(q.error).message}
      </p>
    );
  const s = q.data;
  if (!s)
    return (
      <div className="grid gap-4 lg:grid-cols-3">
        <Skeleton className="h-56" />
        <Skeleton className="h-56 lg:col-span-2" />
      </div>
    );
  // The dashboard's currency leads; else the one with the most recurring revenue.
  const byMrr = [...s.currencies].sort((a, b) => b.mrrMinor - a.mrrMinor);
  const main = s.currencies.find((c) => c.currency === currency) ?? byMrr[0];
  const others = byMrr.filter((c) => c !== main && (c.mrrMinor || c.activePlans));
  const active = s.currencies.reduce((n, c) => n + c.activePlans, 0);
  const pastDue = s.currencies.reduce((n, c) => n + c.pastDuePlans, 0);
  // The series ends with the current month, still running: churn is read from the one before.
  const lastFull = s.series.find((x) => x.currency === main?.currency)?.months.at(-2);
  const ended = lastFull ? lastFull.cancelled + lastFull.lapsed : 0;
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Recurring plans</CardTitle>
          <CardDescription>Monthly recurring revenue of active and past-due plans.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {main ? (
            <>
              <div className="min-w-0">
                {/* Named apart from the dashboard's "Recurring donations received" (this period's gifts). */}
                <p className="text-muted-foreground text-sm">Monthly recurring revenue</p>
                <p className="font-semibold text-2xl tabular-nums [overflow-wrap:anywhere]">
                  {formatMoney(main.mrrMinor, main.currency)}
                  <span className="font-normal text-muted-foreground text-sm"> / month</span>
                </p>
                {others.length ? (
                  <p className="text-muted-foreground text-sm tabular-nums">
                    Also {others.map((c) => formatMoney(c.mrrMinor, c.currency)).join(" · ")}
                  </p>
                ) : null}
              </div>
              <dl className="grid grid-cols-2 gap-3 text-sm">
                <div className="min-w-0">
                  <dt className="text-muted-foreground">Active plans</dt>
                  <dd className="font-semibold text-lg tabular-nums">{formatCount(active)}</dd>
                  {pastDue ? (
                    <dd className="text-muted-foreground text-xs">{formatCount(pastDue)} past due</dd>
                  ) : null}
                </div>
                <div className="min-w-0">
                  <dt className="text-muted-foreground">
                    Churn{lastFull ? `, ${formatMonth(lastFull.month)}` : ""}
                  </dt>
                  <dd className="font-semibold text-lg tabular-nums">
                    {formatPercent(lastFull?.churnRate, 1)}
                  </dd>
                  <dd className="text-muted-foreground text-xs">
                    {lastFull?.activeAtStart
                      ? `${formatCount(ended)} of ${formatCount(lastFull.activeAtStart)} plans cancelled or lapsed${others.length ? ` (${main.currency})` : ""}`
                      : "No plans counted at the month's start"}
                  </dd>
                </div>
              </dl>
            </>
          ) : (
            <p className="text-muted-foreground text-sm">No recurring plans yet.</p>
          )}
          <Link to="/recurring" className={linkClass}>
            View recurring plans <ArrowRight className="size-4" aria-hidden />
          </Link>
        </CardContent>
      </Card>
      <Card className="min-w-0 lg:col-span-2">
        <CardHeader>
          <CardTitle>Plans at risk</CardTitle>
          <CardDescription>Past due: the expected donation is late past the grace period.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {s.atRisk.length ? (
            <ul className="divide-y">
              {s.atRisk.slice(0, AT_RISK_SHOWN).map((p) => (
                <li key={p.id}>
                  <Link
                    to="/recurring/$planId"
                    params={{ planId: p.id }}
                    className="flex flex-wrap items-center justify-between gap-x-3 gap-y-0.5 py-2 text-sm hover:underline"
                  >
                    <span className="min-w-0 truncate font-medium">{donorLabel(p.donorName)}</span>
                    <span className="flex shrink-0 items-center gap-3">
                      <span className="tabular-nums">
                        {planAmount(p.amountMinor, p.currency, p.interval)}
                      </span>
                      <span className="text-red-700 dark:text-red-400">
                        {lateLabel(daysLate(p.nextExpectedAt))}
                      </span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-muted-foreground text-sm">No plan is past due.</p>
          )}
          {pastDue ? (
            <Link to="/recurring" search={{ status: ["past_due"] }} className={linkClass}>
              View all {formatCount(pastDue)} past-due plans <ArrowRight className="size-4" aria-hidden />
            </Link>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
