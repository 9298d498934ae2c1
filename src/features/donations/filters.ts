/**
 * The /donations URL state (./search.ts) as its readers take it: the tRPC list input, the export's
 * query string, the "n filters" hint. Apart from the schema so the route tree (every page's entry
 * chunk) carries the schema only (docs/decisions/012).
 */
import type { DonationSearch } from "./search";

/** The filters of `s` (no paging) as the list procedure and the export read them. */
export function donationFilters(s: DonationSearch) {
  return {
    status: s.status,
    from: s.from,
    to: s.to,
    campaignId: s.campaignId,
    campaignItemId: s.campaignItemId,
    donorId: s.donorId,
    currency: s.currency,
    paymentMethod: s.paymentMethod,
    frequency: s.frequency,
    mode: s.mode === "all" ? undefined : s.mode,
    source: s.source,
    importId: s.importId || undefined,
    segment: s.segment,
    minAmountMinor: s.minAmountMinor,
    maxAmountMinor: s.maxAmountMinor,
    trashed: s.trashed ?? false,
    q: s.q || undefined,
  };
}

/** The export URL of the current filters (worker/http/export.ts parses the same names). */
export function exportUrl(s: DonationSearch) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(donationFilters(s))) {
    if (v === undefined || v === false || v === "") continue;
    params.set(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  const qs = params.toString();
  return `/api/export/donations.csv${qs ? `?${qs}` : ""}`;
}

/** Which filters are set, for the "n filters" hint and the Clear button. */
export function activeFilterCount(s: DonationSearch) {
  const f = donationFilters(s);
  // The mode counts when it is not what an empty URL shows (live): test, or live and test.
  const mode = s.mode !== "live" ? 1 : 0;
  return (
    mode +
    Object.entries(f).filter(
      ([k, v]) =>
        k !== "trashed" && k !== "q" && k !== "mode" && v !== undefined && !(Array.isArray(v) && !v.length),
    ).length
  );
}
