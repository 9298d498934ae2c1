import { localDay } from "@core/time";
import { DateRangePicker } from "~/components/date-range-picker";
import { Segmented, SegmentedItem } from "~/components/ui/segmented";

/**
 * The reporting period of the dashboard and of campaign analytics: preset lengths ("30 days") and a
 * custom range beside them (core/period.ts; the URL carries `days`, or `from` and `to`). A custom
 * range leaves no preset chosen; choosing a preset drops the range. The last day offered is today
 * in `timeZone`, the zone the server counts the period in: a browser ahead of the organization
 * (Paris at 00:30, the organization in Los Angeles) must not offer a day the server refuses.
 */
export function PeriodPicker({
  presets,
  days,
  period,
  onChange,
  timeZone,
}: {
  /** The zone the period is counted in (the organization's; UTC for the all-organizations view). */
  timeZone: string;
  presets: readonly { days: number; label: string }[];
  days: number;
  period: { from?: string; to?: string };
  onChange: (
    next: { days: number; from?: undefined; to?: undefined } | { from?: string; to?: string },
  ) => void;
}) {
  return (
    <>
      {/* One row on a phone too: five equal columns, a smaller type ("All time" wrapped alone). */}
      <Segmented
        aria-label="Period"
        className="max-sm:grid max-sm:w-full max-sm:grid-cols-5"
        value={period.from ? "" : String(days)}
        onValueChange={(v) => onChange({ days: Number(v), from: undefined, to: undefined })}
      >
        {presets.map((p) => (
          <SegmentedItem key={p.days} value={String(p.days)} className="max-sm:px-1 max-sm:text-xs">
            {p.label}
          </SegmentedItem>
        ))}
      </Segmented>
      <DateRangePicker
        label="Custom"
        empty="Pick dates"
        value={{ from: period.from, to: period.to }}
        presets={[]}
        max={localDay(Date.now(), timeZone)}
        onChange={({ from, to }) => onChange({ from, to })}
      />
    </>
  );
}
