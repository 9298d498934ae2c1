import { shiftDay } from "@core/period";
import { CalendarDays } from "lucide-react";
import * as React from "react";
import type { DateRange } from "react-day-picker";
import { Button } from "~/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { Skeleton } from "~/components/ui/skeleton";
import { useToday } from "~/lib/time-zone";
import { cn } from "~/lib/utils";

/** The calendar (react-day-picker) is fetched when the popover first opens, not with the page. */
// The server never renders it (the popover opens in the browser): in the server build the import is
// dead code, so the Worker does not upload react-day-picker (48 KiB gzip; docs/performance.md's
// Worker budget); were it rendered there, it would render nothing.
const loadCalendar = (): Promise<Pick<typeof import("~/components/ui/calendar"), "Calendar">> =>
  import.meta.env.SSR
    ? Promise.resolve({ Calendar: (() => null) as never })
    : import("~/components/ui/calendar");
const Calendar = React.lazy(() => loadCalendar().then((m) => ({ default: m.Calendar })));

/** A range of calendar days as the URL carries them (YYYY-MM-DD, both included); absent = open. */
export interface DayRange {
  from?: string;
  to?: string;
}

interface DatePreset {
  label: string;
  /** The range for `today` (the organization's calendar day, src/lib/time-zone.ts). */
  range: (today: string) => DayRange;
}

const firstOfMonth = (day: string) => `${day.slice(0, 8)}01`;

/** Today, Last 7/30 days, This/Last month, This/Last year, All time. */
export const DATE_PRESETS: DatePreset[] = [
  { label: "Today", range: (t) => ({ from: t, to: t }) },
  { label: "Last 7 days", range: (t) => ({ from: shiftDay(t, -6), to: t }) },
  { label: "Last 30 days", range: (t) => ({ from: shiftDay(t, -29), to: t }) },
  { label: "This month", range: (t) => ({ from: firstOfMonth(t), to: t }) },
  {
    label: "Last month",
    range: (t) => {
      const last = shiftDay(firstOfMonth(t), -1);
      return { from: firstOfMonth(last), to: last };
    },
  },
  { label: "This year", range: (t) => ({ from: `${t.slice(0, 4)}-01-01`, to: t }) },
  {
    label: "Last year",
    range: (t) => {
      const y = String(Number(t.slice(0, 4)) - 1).padStart(4, "0");
      return { from: `${y}-01-01`, to: `${y}-12-31` };
    },
  },
  { label: "All time", range: () => ({}) },
];

const toDate = (day: string) => {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const date = new Date(y, m - 1, d);
  date.setFullYear(y);
  return date;
};
const toDay = (date: Date) =>
  `${String(date.getFullYear()).padStart(4, "0")}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;

const fmt = (day: string, year: boolean) =>
  new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: year ? "numeric" : undefined,
    timeZone: "UTC",
  }).format(new Date(`${day}T00:00:00Z`));

/** "1 Nov – 24 Nov 2026", "28 Dec 2025 – 3 Jan 2026", "24 Nov 2026", "From 1 Nov 2026", or `empty`. */
export function formatDayRange({ from, to }: DayRange, empty = "Any date"): string {
  if (from && to) {
    if (from === to) return fmt(from, true);
    return `${fmt(from, from.slice(0, 4) !== to.slice(0, 4))} – ${fmt(to, true)}`;
  }
  if (from) return `From ${fmt(from, true)}`;
  if (to) return `Until ${fmt(to, true)}`;
  return empty;
}

function useWide() {
  const [wide, setWide] = React.useState(true);
  React.useEffect(() => {
    const q = window.matchMedia("(min-width: 640px)");
    const on = () => setWide(q.matches);
    on();
    q.addEventListener("change", on);
    return () => q.removeEventListener("change", on);
  }, []);
  return wide;
}

/**
 * One labelled date-range control: a button that shows the range, opening presets and a range
 * calendar (two months, one on a phone). Values are YYYY-MM-DD days, exactly as the URL's
 * `from`/`to` carry them; the server reads them in the organization's time zone. With `names`,
 * hidden inputs carry the range in a surrounding form.
 */
export function DateRangePicker({
  label,
  value,
  onChange,
  presets = DATE_PRESETS,
  max,
  empty = "Any date",
  names,
  className,
}: {
  label: string;
  value: DayRange;
  onChange: (next: DayRange) => void;
  /** The quick choices; [] for none. */
  presets?: DatePreset[];
  /** The last day that may be picked (e.g. today for reports). */
  max?: string;
  /** What the button says with no range. */
  empty?: string;
  /** Form field names for `from` and `to` (hidden inputs). */
  names?: [string, string];
  className?: string;
}) {
  const [open, setOpen] = React.useState(false);
  const [draft, setDraft] = React.useState<DateRange | undefined>();
  const wide = useWide();
  const today = useToday();
  const months = wide ? 2 : 1;

  // The first day clicked after opening starts a new range; the second one ends it.
  const [picking, setPicking] = React.useState(false);
  React.useEffect(() => {
    if (open) setPicking(false);
    if (open)
      setDraft(
        value.from || value.to
          ? { from: toDate(value.from ?? value.to!), to: toDate(value.to ?? value.from!) }
          : undefined,
      );
  }, [open, value.from, value.to]);

  const apply = (next: DayRange) => {
    onChange(next);
    setOpen(false);
  };
  const end = draft?.to ?? draft?.from;
  const calendarRef = React.useRef<HTMLDivElement>(null);
  const anchor = value.to ?? value.from ?? max ?? today;
  const firstMonth = toDate(anchor);
  if (months === 2) firstMonth.setMonth(firstMonth.getMonth() - 1, 1);
  const current = presets.find((p) => {
    const r = p.range(today);
    return r.from === value.from && r.to === value.to;
  });

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          type="button"
          variant="outline"
          className={cn("h-9 justify-start gap-2 px-3 font-normal", className)}
          onPointerEnter={() => void loadCalendar()}
          onFocus={() => void loadCalendar()}
        >
          <CalendarDays className="size-4 text-muted-foreground" aria-hidden />
          <span className="text-muted-foreground">{label}</span>
          <span className={cn("truncate", !value.from && !value.to && "text-muted-foreground")}>
            {formatDayRange(value, empty)}
          </span>
        </Button>
      </PopoverTrigger>
      {names ? (
        <>
          <input type="hidden" name={names[0]} value={value.from ?? ""} />
          <input type="hidden" name={names[1]} value={value.to ?? ""} />
        </>
      ) : null}
      <PopoverContent
        aria-label={label}
        align="start"
        // Without quick ranges the calendar is the thing to use: focus goes to its day (the
        // chosen one, else today), not to the footer's Clear, once the lazy calendar is there.
        onOpenAutoFocus={(e) => {
          if (presets.length) return;
          e.preventDefault();
          focusCalendarDay(() => calendarRef.current);
        }}
        // Within the room the screen has (a phone's filter sheet leaves little): it scrolls rather than leaving the screen.
        className="max-h-(--radix-popover-content-available-height) w-auto max-w-[calc(100vw-1rem)] overflow-y-auto p-0"
      >
        <div className="flex flex-col sm:flex-row">
          {presets.length ? (
            <fieldset className="flex flex-wrap gap-1 border-b p-2 sm:w-36 sm:flex-col sm:flex-nowrap sm:border-r sm:border-b-0">
              <legend className="sr-only">{label}: quick ranges</legend>
              {presets.map((p) => (
                <Button
                  key={p.label}
                  type="button"
                  size="sm"
                  variant={p === current ? "secondary" : "ghost"}
                  aria-pressed={p === current}
                  className="h-8 justify-start px-2 font-normal"
                  onClick={() => apply(p.range(today))}
                >
                  {p.label}
                </Button>
              ))}
            </fieldset>
          ) : null}
          <div className="flex flex-col" ref={calendarRef}>
            <React.Suspense
              fallback={<Skeleton className={cn("m-3 h-72", months === 2 ? "w-[34rem]" : "w-64")} />}
            >
              <Calendar
                mode="range"
                numberOfMonths={months}
                defaultMonth={firstMonth}
                selected={draft}
                onSelect={(range, day) => {
                  if (picking) return setDraft(range);
                  setPicking(true);
                  setDraft({ from: day, to: undefined });
                }}
                disabled={max ? { after: toDate(max) } : undefined}
                endMonth={max ? toDate(max) : undefined}
                className="p-3"
              />
            </React.Suspense>
            <div className="flex flex-wrap items-center justify-between gap-2 border-t p-2">
              <span className="px-1 text-muted-foreground text-xs" aria-live="polite">
                {draft?.from
                  ? formatDayRange({ from: toDay(draft.from), to: end ? toDay(end) : undefined })
                  : "Pick the first and last day"}
              </span>
              <span className="flex gap-2">
                <Button type="button" size="sm" variant="ghost" onClick={() => apply({})}>
                  Clear
                </Button>
                <Button
                  type="button"
                  size="sm"
                  disabled={!draft?.from}
                  onClick={() => draft?.from && end && apply({ from: toDay(draft.from), to: toDay(end) })}
                >
                  Apply
                </Button>
              </span>
            </div>
          </div>
        </div>
      </PopoverContent>
    </Popover>
  );
}

/**
 * Focuses the calendar's day that takes focus (react-day-picker gives it tabindex 0): the calendar
 * loads on first open, so this waits for it, a frame at a time, for up to two seconds.
 */
function focusCalendarDay(root: () => HTMLElement | null, deadline = performance.now() + 2000) {
  const day = root()?.querySelector<HTMLButtonElement>('[role="grid"] button[tabindex="0"]');
  if (day) return day.focus();
  if (performance.now() < deadline) requestAnimationFrame(() => focusCalendarDay(root, deadline));
}
