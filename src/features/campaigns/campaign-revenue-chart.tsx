import { moneyAxes } from "~/features/charts/revenue-chart";
import { SeriesChart } from "~/features/charts/series-chart";

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
    return <p className="py-16 text-center text-muted-foreground text-sm">No donations in this period.</p>;
  return (
    <SeriesChart
      kind="bar"
      data={series.map((p) => ({ key: p.day, value: p.raised }))}
      label={`Revenue by ${bucket}, ${series.length} ${bucket}s`}
      minTickGap={24}
      {...moneyAxes(currency, bucket)}
    />
  );
}
