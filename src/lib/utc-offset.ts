/**
 * A zone's offset from UTC as the time zone picker shows it (src/components/time-zone-combobox.tsx
 * and its list): "UTC", "UTC+05:30", "UTC-03:00". Apart from src/lib/time-zone.ts, which every
 * page loads, so that only the pages with a picker carry it.
 */
import { offsetAt } from "@core/time";

export function offsetText(minutes: number): string {
  if (minutes === 0) return "UTC";
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `UTC${minutes < 0 ? "-" : "+"}${hh}:${mm}`;
}

/** The offset of `timeZone` at `now`. */
export function utcOffsetLabel(timeZone: string, now = Date.now()): string {
  return offsetText(Math.round(offsetAt(now, timeZone) / 60_000));
}
