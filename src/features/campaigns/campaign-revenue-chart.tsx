import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { CHART_COLOR, moneyTick, periodLabel } from "~/features/charts/revenue-chart";
import { formatMoney } from "~/lib/format";

/** Revenue per local day, month or year as the API bucketed it (zero-filled). */
export function CampaignRevenueChart({
  series,
  currency,
  bucket,
}: {
  series: { day: string; raised: number; count: number }[];
  currency: string;
  bucket: "day" | "month" | "year";
}) {
  if (!series.some((p) => p.raised !== 0))
    return <p className="py-16 text-center text-muted-foreground text-sm">No gifts in this period.</p>;
  return (
    <div className="h-64 w-full" role="img" aria-label={`Revenue by ${bucket}, ${series.length} ${bucket}s`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={series} margin={{ left: 8, right: 8, top: 8, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} className="stroke-border" />
          <XAxis
            dataKey="day"
            tickLine={false}
            axisLine={false}
            minTickGap={24}
            fontSize={12}
            tickFormatter={(k: string) => periodLabel(k, bucket)}
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
            labelFormatter={(k) => periodLabel(String(k), bucket, true)}
            labelClassName="text-foreground"
          />
          <Bar dataKey="raised" name="Raised" fill={CHART_COLOR} radius={[3, 3, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
