/**
 * The time zone picker's list (./time-zone-combobox.tsx), loaded with its first open. The zones are
 * @vvo/tzdb's: IANA's current names (Asia/Kolkata, Europe/Kyiv, where a browser's own list says
 * Asia/Calcutta, Europe/Kiev), one entry per zone showing the same time, each with its country,
 * main cities and generic name. Typing any of those, an old name or an offset ("+5:30") finds it;
 * cmdk handles the arrow keys, Enter and the listbox ARIA. The zone in use starts highlighted.
 */
import { getTimeZones } from "@vvo/tzdb";
import { Check } from "lucide-react";
import * as React from "react";
import {
  Command,
  CommandEmpty,
  CommandGroup,
  CommandInput,
  CommandItem,
  CommandList,
} from "~/components/ui/command";
import { offsetText } from "~/lib/utc-offset";
import { cn } from "~/lib/utils";

interface ZoneOption {
  /** The IANA name stored when chosen. */
  id: string;
  /** Every name showing the same time (old names too): the zone in use is found among them. */
  names: string[];
  detail: string;
  offset: string;
  keywords: string[];
}

/** The list, west to east; a zone in use that no entry names (e.g. Etc/GMT+5) is kept at the top. */
function zoneOptions(current: string): ZoneOption[] {
  const options: ZoneOption[] = getTimeZones({ includeUtc: true })
    .sort(
      (a, b) => a.currentTimeOffsetInMinutes - b.currentTimeOffsetInMinutes || a.name.localeCompare(b.name),
    )
    .map((z) => {
      const minutes = z.currentTimeOffsetInMinutes;
      const abs = Math.abs(minutes);
      const short = `${minutes < 0 ? "-" : "+"}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, "0")}` : ""}`;
      const offset = offsetText(minutes);
      const cities = z.mainCities.filter(Boolean);
      return {
        id: z.name,
        names: z.group,
        detail: [z.countryName || z.alternativeName, cities.join(", ")].filter(Boolean).join(" · "),
        offset,
        keywords: [
          ...z.group.map((n) => n.replaceAll("_", " ")),
          z.alternativeName,
          z.countryName,
          ...cities,
          z.currentAbbreviation,
          offset,
          offset.slice(3),
          `UTC${short}`,
          `GMT${short}`,
        ].filter(Boolean),
      };
    });
  if (current && !options.some((o) => o.names.includes(current)))
    options.unshift({ id: current, names: [current], detail: "", offset: "", keywords: [current] });
  return options;
}

export function TimeZoneList({
  value,
  label,
  onChoose,
  note,
}: {
  value: string;
  label: string;
  onChoose: (timeZone: string) => void;
  /** Words after a zone's name, given every name it goes by, e.g. "(your organization's)". */
  note?: (names: string[]) => string | null;
}) {
  const options = React.useMemo(() => zoneOptions(value), [value]);
  const chosen = options.find((o) => o.names.includes(value))?.id ?? value;
  const [active, setActive] = React.useState(chosen);
  const [search, setSearch] = React.useState("");
  const list = React.useRef<HTMLDivElement>(null);
  // Each keystroke shows the best match, the first option (M7): without this the list kept the
  // scroll of the zone in use and showed matches from the middle. After cmdk's own scroll, which
  // runs in the frame after it re-sorts.
  React.useEffect(() => {
    if (!search) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        if (list.current) list.current.scrollTop = 0;
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [search]);
  // The zone in use in the middle of the list: after cmdk's own first scroll (to the nearest edge,
  // in an animation frame of its own), hence two frames.
  React.useEffect(() => {
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() =>
        list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: "center" }),
      );
    });
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <Command loop label={label} value={active} onValueChange={setActive}>
      {/* The list mounts as the popover opens, after Radix has looked for something to focus. */}
      <CommandInput
        autoFocus
        placeholder="City, country or offset"
        value={search}
        onValueChange={setSearch}
      />
      <CommandList ref={list} className="max-h-[min(320px,45dvh)]">
        <CommandEmpty>No time zone matches</CommandEmpty>
        <CommandGroup>
          {options.map((o) => {
            const words = note?.(o.names);
            return (
              <CommandItem key={o.id} value={o.id} keywords={o.keywords} onSelect={() => onChoose(o.id)}>
                <Check
                  aria-hidden="true"
                  className={cn("size-4", o.id === chosen ? "opacity-100" : "opacity-0")}
                />
                <span className="flex min-w-0 flex-col">
                  <span className="truncate">
                    {o.id.replaceAll("_", " ")}
                    {words ? <span className="text-muted-foreground"> {words}</span> : null}
                  </span>
                  {o.detail ? (
                    <span className="truncate text-muted-foreground text-xs">{o.detail}</span>
                  ) : null}
                </span>
                <span className="ml-auto shrink-0 text-muted-foreground text-xs tabular-nums">
                  {o.offset}
                </span>
              </CommandItem>
            );
          })}
        </CommandGroup>
      </CommandList>
    </Command>
  );
}
