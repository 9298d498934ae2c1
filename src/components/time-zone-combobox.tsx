/**
 * Pick a time zone by typing ("new york", "kolkata", "+5:30") instead of spelling its IANA name:
 * the organization profile's zone and an import's zone for dates that name none. The trigger and
 * the hidden form input are in the page from the start; the list (cmdk, ./time-zone-list.tsx)
 * loads when the pointer or focus reaches the trigger, as the date picker's calendar does
 * (src/components/date-range-picker.tsx), so the server build and the page's first load leave it out.
 */
import { ChevronsUpDown } from "lucide-react";
import * as React from "react";
import { Button } from "~/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { Skeleton } from "~/components/ui/skeleton";
import { utcOffsetLabel } from "~/lib/utc-offset";
import { cn } from "~/lib/utils";

const loadList = (): Promise<Pick<typeof import("./time-zone-list"), "TimeZoneList">> =>
  import.meta.env.SSR ? Promise.resolve({ TimeZoneList: (() => null) as never }) : import("./time-zone-list");
const TimeZoneList = React.lazy(() => loadList().then((m) => ({ default: m.TimeZoneList })));

type ControlProps = {
  id?: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  "aria-required"?: true;
};

function offsetOf(timeZone: string): string | null {
  try {
    return utcOffsetLabel(timeZone);
  } catch {
    return null;
  }
}

export function TimeZoneCombobox({
  value,
  onChange,
  name,
  label = "Time zone",
  note,
  disabled,
  className,
  ...control
}: ControlProps & {
  value: string;
  onChange: (timeZone: string) => void;
  /** When given, a hidden input of this name carries the zone in a form. */
  name?: string;
  /** The list's accessible name. */
  label?: string;
  /** Words after a zone in the list, given every name it goes by. */
  note?: (names: string[]) => string | null;
  disabled?: boolean;
  className?: string;
}) {
  const [open, setOpen] = React.useState(false);
  const offset = offsetOf(value);
  return (
    <>
      {name ? <input type="hidden" name={name} value={value} /> : null}
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button
            type="button"
            variant="outline"
            role="combobox"
            aria-expanded={open}
            aria-haspopup="listbox"
            disabled={disabled}
            className={cn("h-9 w-full min-w-0 justify-between gap-2 px-3 font-normal", className)}
            onPointerEnter={() => void loadList()}
            onFocus={() => void loadList()}
            {...control}
          >
            <span className="min-w-0 truncate">
              {value ? value.replaceAll("_", " ") : "Choose a time zone"}
            </span>
            <span className="ml-auto flex shrink-0 items-center gap-2">
              {offset ? <span className="text-muted-foreground text-xs tabular-nums">{offset}</span> : null}
              <ChevronsUpDown aria-hidden="true" className="size-4 opacity-50" />
            </span>
          </Button>
        </PopoverTrigger>
        <PopoverContent
          align="start"
          // Radix gives the popover role="dialog": it needs a name of its own.
          aria-label={label}
          className="w-(--radix-popover-trigger-width) min-w-72 max-w-[calc(100vw-1rem)] p-0"
          collisionPadding={8}
        >
          <React.Suspense fallback={<Skeleton className="m-3 h-64" />}>
            <TimeZoneList
              value={value}
              label={label}
              note={note}
              onChoose={(timeZone) => {
                onChange(timeZone);
                setOpen(false);
              }}
            />
          </React.Suspense>
        </PopoverContent>
      </Popover>
    </>
  );
}
