import { formatMoney } from "~/lib/format";
import { SvgChart } from "./svg-chart";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A bucket key of the API (YYYY-MM-DD, YYYY-MM or YYYY) as a short axis label. */
export function periodLabel(period: string, bucket: "day" | "month" | "year") {
  if (bucket === "year") return period;
  const m = MONTHS[Number(period.slice(5, 7)) - 1] ?? period;
  return bucket === "month" ? `${m} ${period.slice(2, 4)}` : `${m} ${Number(period.slice(8, 10))}`;
}

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
    <SvgChart
      kind="area"
      label={`Revenue chart, ${data.length} ${bucket}s`}
      points={data.map((p) => ({ key: p.period, value: p.raised }))}
      tickLabel={(p) => periodLabel(p, bucket)}
      formatValue={(v) => formatMoney(v, currency)}
      formatTick={(v) => formatMoney(v, currency).replace(/\.\d+$/, "")}
      minTickGap={32}
    />
  );
}
