import { browserToday, DateRangePicker } from "~/components/date-range-picker";
import { Segmented, SegmentedItem } from "~/components/ui/segmented";

/**
 * The reporting period of the dashboard and of campaign analytics: preset lengths ("30 days") and a
 * custom range beside them (core/period.ts; the URL carries `days`, or `from` and `to`). A custom
 * range leaves no preset chosen; choosing a preset drops the range.
 */
export function PeriodPicker({
  presets,
  days,
  period,
  onChange,
}: {
  presets: readonly { days: number; label: string }[];
  days: number;
  period: { from?: string; to?: string };
  onChange: (
    next: { days: number; from?: undefined; to?: undefined } | { from?: string; to?: string },
  ) => void;
}) {
  return (
    <>
      <Segmented
        aria-label="Period"
        value={period.from ? "" : String(days)}
        onValueChange={(v) => onChange({ days: Number(v), from: undefined, to: undefined })}
      >
        {presets.map((p) => (
          <SegmentedItem key={p.days} value={String(p.days)}>
            {p.label}
          </SegmentedItem>
        ))}
      </Segmented>
      <DateRangePicker
        label="Custom"
        empty="Pick dates"
        value={{ from: period.from, to: period.to }}
        presets={[]}
        max={browserToday()}
        onChange={({ from, to }) => onChange({ from, to })}
      />
    </>
  );
}
