/**
 * The zone the portal shows dates in: the current organization's, as the server answers it with
 * the session (worker/access/service.ts `callerCapabilities`), UTC when signed out or without an
 * organization. The session query is rendered on the server and hydrated in the browser, so both
 * write the same day (src/lib/format.ts `formatDate`).
 */
import { localDay, offsetAt } from "@core/time";
import { useQuery } from "@tanstack/react-query";
import { sessionQueryOptions } from "./auth/session";

export function useTimeZone(): string {
  return useQuery(sessionQueryOptions()).data?.capabilities?.timeZone ?? "UTC";
}

/**
 * Today in the organization's zone, YYYY-MM-DD: the last day a filter or report may name and the
 * day the presets ("Last 7 days") end on, as the server counts them (worker/donations/filters.ts).
 */
export function useToday(): string {
  return localDay(Date.now(), useTimeZone());
}

/** A zone's offset from UTC at `now`, as the zone pickers show it: "UTC", "UTC+05:30", "UTC-03:00". */
export function utcOffsetLabel(timeZone: string, now = Date.now()): string {
  return offsetText(Math.round(offsetAt(now, timeZone) / 60_000));
}

function offsetText(minutes: number): string {
  if (minutes === 0) return "UTC";
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `UTC${minutes < 0 ? "-" : "+"}${hh}:${mm}`;
}
