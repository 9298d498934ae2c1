/**
 * The /recurring URL state (./search.ts) as plans.list and plans.exportPage read it
 * (worker/plans/router.ts planFilters), and the filters in use. Apart from the schema so that
 * toMinor's module stays out of the route tree's chunk.
 */
import { toMinor } from "~/lib/format";
import type { PlanSearch } from "./search";

/** The keys Clear filters removes (the search box, sort and paging stay). */
export const PLAN_FILTER_KEYS = [
  "status",
  "interval",
  "currency",
  "campaignId",
  "donorId",
  "minAmount",
  "maxAmount",
] as const satisfies readonly (keyof PlanSearch)[];

/** Minor units of a URL amount; none for none (the schema already refused what toMinor would). */
function minorOf(major: number | undefined, currency: string) {
  if (major === undefined) return undefined;
  try {
    return toMinor(major, currency);
  } catch {
    return undefined;
  }
}

/**
 * The filters of `s` (no paging) as plans.list and plans.exportPage take them. The amounts are read
 * in the filtered currency, else in `currency` (the organization's default, the one the amount
 * fields name).
 */
export function planFilters(s: PlanSearch, currency: string) {
  const cur = s.currency ?? currency;
  return {
    status: s.status?.length ? s.status : undefined,
    interval: s.interval,
    currency: s.currency,
    campaignId: s.campaignId || undefined,
    donorId: s.donorId || undefined,
    minAmountMinor: minorOf(s.minAmount, cur),
    maxAmountMinor: minorOf(s.maxAmount, cur),
    q: s.q?.trim() || undefined,
  };
}

/** Which filters are set, for the phone's "Filters (n)", the empty state and Clear filters. */
export function activeFilterCount(s: PlanSearch) {
  return PLAN_FILTER_KEYS.filter((k) => {
    const v = s[k];
    return v !== undefined && v !== "" && !(Array.isArray(v) && !v.length);
  }).length;
}
