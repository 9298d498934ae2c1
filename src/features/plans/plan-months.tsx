/**
 * /recurring's month by month (plans.summary `series`): new, reactivated, paused and ended plans,
 * churn and MRR at each month's end, for the strip's currency, the last 12 months, newest first.
 * Folded by default and asked for when opened: most visits are for the list.
 */
import { useQuery } from "@tanstack/react-query";
import * as React from "react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { errorInfo, formatCount, formatMoney, formatPercent } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { formatMonth } from "./plan-words";

const MONTHS = 12;

export function PlanMonths({ currency }: { currency: string }) {
  const [open, setOpen] = React.useState(false);
  return (
    <details
      className="rounded-lg border bg-card text-sm"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary className="cursor-pointer select-none px-4 py-3 font-medium">
        Month by month: new, reactivated and ended plans, churn and MRR ({currency})
      </summary>
      {open ? <Months currency={currency} /> : null}
    </details>
  );
}

function Months({ currency }: { currency: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.plans.summary.queryOptions({ months: MONTHS, days: 30 }));
  if (q.error)
    return (
      <p role="alert" className="px-4 pb-3 text-destructive">
        {errorInfo(q.error).message}
      </p>
    );
  if (!q.data)
    return (
      <p className="px-4 pb-3 text-muted-foreground" aria-busy="true">
        Loading…
      </p>
    );
  const months = [...(q.data.series.find((x) => x.currency === currency)?.months ?? [])].reverse();
  if (!months.length) return <p className="px-4 pb-3 text-muted-foreground">No plans in {currency} yet.</p>;
  return (
    <div className="overflow-x-auto px-4 pb-3">
      <Table aria-label={`Plans month by month in ${currency}`}>
        <TableHeader>
          <TableRow>
            <TableHead>Month</TableHead>
            <TableHead className="text-right">New</TableHead>
            <TableHead className="text-right">Reactivated</TableHead>
            <TableHead className="text-right">Paused</TableHead>
            <TableHead className="text-right">Cancelled</TableHead>
            <TableHead className="text-right">Lapsed</TableHead>
            <TableHead className="text-right">
              <abbr title="Cancelled and lapsed plans over the plans counting at the month's start">
                Churn
              </abbr>
            </TableHead>
            <TableHead className="text-right">MRR at the end</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {months.map((m, i) => (
            <TableRow key={m.month}>
              <TableCell>
                {formatMonth(m.month, "short")}
                {i === 0 ? <span className="text-muted-foreground"> (so far)</span> : null}
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(m.new)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(m.reactivated)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(m.paused)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(m.cancelled)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(m.lapsed)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatPercent(m.churnRate, 1)}</TableCell>
              <TableCell className="text-right tabular-nums">
                {formatMoney(m.mrrEndMinor, currency)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
