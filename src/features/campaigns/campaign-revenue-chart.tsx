import { SvgChart } from "~/features/charts/svg-chart";
import { formatMoney } from "~/lib/format";

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
    <SvgChart
      kind="bar"
      label={`Revenue by ${bucket}, ${series.length} ${bucket}s`}
      points={series.map((p) => ({ key: p.day, value: p.raised }))}
      tickLabel={(k) => label(k, bucket)}
      tooltipLabel={(k) => label(k, bucket, true)}
      formatValue={(v) => formatMoney(v, currency)}
      formatTick={(v) => formatMoney(v, currency).replace(/\.\d+$/, "")}
    />
  );
}
