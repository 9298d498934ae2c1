import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMoney } from "~/lib/format";

// SVG presentation attributes cannot read CSS variables; the brand teal is fixed here.
const COLOR = "#0f766e";

/** Revenue per local day (zero-filled by the API). */
export function RevenueChart({
  series,
  currency,
}: {
  series: { day: string; raised: number }[];
  currency: string;
}) {
  if (!series.length)
    return <p className="py-16 text-center text-muted-foreground text-sm">No gifts in this period.</p>;
  return (
    <div className="h-64 w-full" role="img" aria-label={`Revenue chart, ${series.length} days`}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={series} margin={{ left: 8, right: 8, top: 8, bottom: 0 }}>
          <defs>
            <linearGradient id="rev" x1="0" y1="0" x2="0" y2="1">
              <stop offset="5%" stopColor={COLOR} stopOpacity={0.35} />
              <stop offset="95%" stopColor={COLOR} stopOpacity={0} />
            </linearGradient>
          </defs>
          <CartesianGrid strokeDasharray="3 3" vertical={false} className="stroke-border" />
          <XAxis
            dataKey="day"
            tickLine={false}
            axisLine={false}
            minTickGap={32}
            fontSize={12}
            tickFormatter={(d: string) => d.slice(5)}
          />
          <YAxis
            tickLine={false}
            axisLine={false}
            width={64}
            fontSize={12}
            tickFormatter={(v: number) => formatMoney(v, currency).replace(/\.\d+$/, "")}
          />
          <Tooltip formatter={(v) => formatMoney(Number(v), currency)} labelClassName="text-foreground" />
          <Area
            type="monotone"
            dataKey="raised"
            name="Raised"
            stroke={COLOR}
            fill="url(#rev)"
            strokeWidth={2}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
