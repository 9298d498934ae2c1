import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMoney } from "~/lib/format";

// SVG presentation attributes cannot read CSS variables; the brand teal is fixed here.
const COLOR = "#0f766e";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Labels for the API's bucket keys: "2026-03-14" (day), "2026-03" (month), "2026" (year). */
function label(key: string, bucket: "day" | "month" | "year", long = false) {
  if (bucket === "year") return key;
  const [y, m, d] = key.split("-");
  const month = MONTHS[Number(m) - 1] ?? m;
  if (bucket === "month") return long ? `${month} ${y}` : `${month} ${y?.slice(2)}`;
  return long ? `${Number(d)} ${month} ${y}` : `${Number(d)} ${month}`;
}

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
            tickFormatter={(k: string) => label(k, bucket)}
          />
          <YAxis
            tickLine={false}
            axisLine={false}
            width={64}
            fontSize={12}
            tickFormatter={(v: number) => formatMoney(v, currency).replace(/\.\d+$/, "")}
          />
          <Tooltip
            formatter={(v) => formatMoney(Number(v), currency)}
            labelFormatter={(k) => label(String(k), bucket, true)}
            labelClassName="text-foreground"
          />
          <Bar dataKey="raised" name="Raised" fill={COLOR} radius={[3, 3, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
