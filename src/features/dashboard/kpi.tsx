import { Link } from "@tanstack/react-router";
import { TrendingDown, TrendingUp } from "lucide-react";
import type * as React from "react";
import { Card, CardContent } from "~/components/ui/card";
import { formatPercent } from "~/lib/format";
import { cn } from "~/lib/utils";

/** One dashboard tile; with `to` it is a link to the filtered list behind the number. */
export function Kpi({
  label,
  value,
  change,
  hint,
  to,
  search,
}: {
  label: string;
  value: React.ReactNode;
  /** Ratio vs the previous equal period; null = nothing to compare; undefined = no line. */
  change?: number | null;
  hint?: React.ReactNode;
  to?: string;
  search?: Record<string, unknown>;
}) {
  const text = typeof value === "string" ? value : undefined;
  const body = (
    <Card className={cn("h-full gap-0 py-0 transition-colors", to && "hover:border-primary/50")}>
      {/* Sized by the tile, not the screen: two tiles share a 360 px row, and a seven-figure total in
          a currency with a prefix (CA$1,367,047.50) must still fit. Longer values (a prefixed
          currency, "average / median") take the next smaller step at each tile width; the exact
          value is the title; it wraps only as a last resort. */}
      <CardContent className="@container flex flex-col gap-1 p-4">
        <span className="text-muted-foreground text-sm">{label}</span>
        <span
          title={text}
          className={cn(
            "font-semibold tabular-nums [overflow-wrap:anywhere]",
            (text?.length ?? 0) > 13
              ? "text-xs @[9rem]:text-sm @[11rem]:text-base @[12rem]:text-xl @[16rem]:text-2xl"
              : "text-sm @[9rem]:text-base @[10rem]:text-lg @[12rem]:text-2xl",
          )}
        >
          {value}
        </span>
        {hint ? <span className="text-muted-foreground text-xs">{hint}</span> : null}
        {change === undefined ? null : (
          <span
            className={cn(
              "flex items-center gap-1 text-xs",
              change === null
                ? "text-muted-foreground"
                : change >= 0
                  ? "text-emerald-700 dark:text-emerald-400"
                  : "text-red-700 dark:text-red-400",
            )}
          >
            {change === null ? (
              "No earlier period to compare"
            ) : (
              <>
                {change >= 0 ? <TrendingUp className="size-3.5" /> : <TrendingDown className="size-3.5" />}
                {change >= 0 ? "+" : ""}
                {formatPercent(change, 1)} vs previous period
              </>
            )}
          </span>
        )}
      </CardContent>
    </Card>
  );
  return to ? (
    <Link
      to={to as never}
      search={search as never}
      className="rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {body}
    </Link>
  ) : (
    body
  );
}

export const PERIODS = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 365, label: "12 months" },
  { days: 0, label: "All time" },
] as const;
