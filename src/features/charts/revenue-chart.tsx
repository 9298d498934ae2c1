import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMoney } from "~/lib/format";

// SVG presentation attributes cannot read CSS variables; the brand teal is fixed here.
export const CHART_COLOR = "#0f766e";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A bucket key of the API (YYYY-MM-DD, YYYY-MM or YYYY) as an axis label, or with `long` as a
 * tooltip label ("14 Mar 2026", "Mar 2026").
 */
export function periodLabel(period: string, bucket: "day" | "month" | "year", long = false) {
  if (bucket === "year") return period;
  const y = period.slice(0, 4);
  const m = MONTHS[Number(period.slice(5, 7)) - 1] ?? period;
  if (bucket === "month") return long ? `${m} ${y}` : `${m} ${y.slice(2)}`;
  const d = Number(period.slice(8, 10));
  return long ? `${d} ${m} ${y}` : `${m} ${d}`;
}

/** Money axis ticks without minor units ("$1,200"). */
export const moneyTick = (currency: string) => (v: number) => formatMoney(v, currency).replace(/\.\d+$/, "");

/** Revenue per local day, month or year (bucketed and zero-filled by the API). */
export function RevenueChart({
  series,
  currency,
  bucket = "day",
}: {
  /** `day` is accepted too (the campaign analytics screen sends per-day points). */
  series: ({ period: string; raised: number } | { day: string; raised: number })[];
  currency: string;
  bucket?: "day" | "month" | "year";
}) {
  const data = series.map((p) => ({ period: "period" in p ? p.period : p.day, raised: p.raised }));
  if (!data.length)
    return <p className="py-16 text-center text-muted-foreground text-sm">No gifts in this period.</p>;
  return (
    <div className="h-64 w-full" role="img" aria-label={`Revenue chart, ${data.length} ${bucket}s`}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={data} margin={{ left: 8, right: 8, top: 8, bottom: 0 }}>
          <defs>
            <linearGradient id="rev" x1="0" y1="0" x2="0" y2="1">
              <stop offset="5%" stopColor={CHART_COLOR} stopOpacity={0.35} />
              <stop offset="95%" stopColor={CHART_COLOR} stopOpacity={0} />
            </linearGradient>
          </defs>
          <CartesianGrid strokeDasharray="3 3" vertical={false} className="stroke-border" />
          <XAxis
            dataKey="period"
            tickLine={false}
            axisLine={false}
            minTickGap={32}
            fontSize={12}
            tickFormatter={(p: string) => periodLabel(p, bucket)}
          />
          <YAxis
            tickLine={false}
            axisLine={false}
            width={64}
            fontSize={12}
            tickFormatter={moneyTick(currency)}
          />
          <Tooltip
            formatter={(v) => formatMoney(Number(v), currency)}
            labelFormatter={(p) => periodLabel(String(p), bucket, true)}
            labelClassName="text-foreground"
          />
          <Area
            type="monotone"
            dataKey="raised"
            name="Raised"
            stroke={CHART_COLOR}
            fill="url(#rev)"
            strokeWidth={2}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
