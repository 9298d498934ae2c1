/**
 * The /donations URL state (DESIGN §4: filters in the URL) and its two readers: the tRPC list
 * input and the export's query string. The dashboard's tiles link here with these filters.
 */

import { frequencyFilters } from "@core/donation";
import { paymentMethods } from "@core/labels";
import { currencyCode } from "@core/schemas";
import { donationStatuses } from "@core/status";
import { z } from "zod/mini";
import {
  dayParam,
  enumParam,
  facetParam,
  flagParam,
  listSearch,
  minorParam,
  opt,
  textParam,
  withDefault,
} from "~/lib/search-params";

const day = dayParam;
const text = textParam;

export const METHODS = paymentMethods;
/** How a gift came in: the donation table's own set (donation_source_valid, worker/db/domain.ts). */
export const SOURCES = ["manual", "online", "webhook", "import"] as const;
export type DonationSource = (typeof SOURCES)[number];

/** How a gift came in, as the source filter names it. */
export const SOURCE_LABELS: Readonly<Record<DonationSource, string>> = {
  manual: "Recorded by hand",
  online: "Online",
  webhook: "Payment provider",
  import: "Imported",
};

export const donationSearch = z.extend(listSearch, {
  sort: withDefault(z.enum(["date", "amount", "status", "number"]), "date"),
  status: facetParam(donationStatuses),
  from: day,
  to: day,
  campaignId: text(64),
  campaignItemId: text(64),
  donorId: text(64),
  currency: opt(currencyCode),
  paymentMethod: text(30),
  frequency: enumParam(frequencyFilters),
  mode: enumParam(["live", "test"]),
  source: enumParam(SOURCES),
  /** The gifts one CSV import created (issue 23): "View the imported donations" links here. */
  importId: text(64),
  segment: enumParam(["retained", "lapsed"]),
  minAmountMinor: minorParam,
  maxAmountMinor: minorParam,
  trashed: flagParam,
});
export type DonationSearch = z.infer<typeof donationSearch>;

/** DESIGN §4's counted donations as list filters (the trash is excluded by default). */
export const COUNTED_FILTER = {
  status: ["completed", "partially_refunded"] as ("completed" | "partially_refunded")[],
  mode: "live" as const,
};

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
    mode: s.mode,
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
  return Object.entries(f).filter(
    ([k, v]) => k !== "trashed" && k !== "q" && v !== undefined && !(Array.isArray(v) && !v.length),
  ).length;
}
