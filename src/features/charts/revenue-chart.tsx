import { SeriesChart } from "~/features/charts/series-chart";
import { exponentOf, formatMoney } from "~/lib/format";

// SVG presentation attributes cannot read CSS variables; the brand teal is fixed here.
const CHART_COLOR = "#0f766e";

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

/** The axis and tooltip formatting both revenue charts share (amounts in minor units). */
export function moneyAxes(currency: string, bucket: "day" | "month" | "year") {
  return {
    xTick: (k: string) => periodLabel(k, bucket),
    xLong: (k: string) => periodLabel(k, bucket, true),
    yTick: moneyTick(currency),
    yLong: (v: number) => formatMoney(v, currency),
    // Whole currency units only: moneyTick drops the minor digits, so $0.20 and $0.40 would read "$0".
    yStep: 10 ** exponentOf(currency),
    valueName: "Raised",
    color: CHART_COLOR,
  };
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
  const data = series.map((p) => ({ key: "period" in p ? p.period : p.day, value: p.raised }));
  if (!data.length)
    return <p className="py-16 text-center text-muted-foreground text-sm">No donations in this period.</p>;
  return (
    <SeriesChart
      kind="area"
      data={data}
      label={`Revenue chart, ${data.length} ${bucket}s`}
      minTickGap={32}
      {...moneyAxes(currency, bucket)}
    />
  );
}
