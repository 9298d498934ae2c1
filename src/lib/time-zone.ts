/**
 * The zone the portal shows dates in: the current organization's, as the server answers it with
 * the session (worker/access/service.ts `callerCapabilities`), UTC when signed out or without an
 * organization. The session query is rendered on the server and hydrated in the browser, so both
 * write the same day (src/lib/format.ts `formatDate`).
 */
import { localDay } from "@core/time";
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
