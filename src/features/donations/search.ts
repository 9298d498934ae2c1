/**
 * The /donations URL state (DESIGN §4: filters in the URL). Its two readers (the tRPC list input
 * and the export's query string) are ./filters.ts: a route's search schema loads with the route
 * tree on every page (docs/decisions/012), so this module holds the schema only, and spells
 * core/donation.ts's frequency filters rather than importing that module, whose form schemas
 * would come along (tsc holds the two equal), as src/features/plans/search.ts does.
 */

import type { frequencyFilters } from "@core/donation";
import { donationSources, paymentMethods } from "@core/labels";
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

/** core/donation.ts frequencyFilters, spelled here for the reason above (the list's select reads it too). */
export const FREQUENCY_FILTERS = ["one_time", "recurring", "monthly", "quarterly", "annually"] as const;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** Types only (nothing at run time): tsc fails here when core/donation.ts adds or drops a value. */
export type FrequencyFiltersMatch = Holds<
  Same<(typeof FREQUENCY_FILTERS)[number], (typeof frequencyFilters)[number]>
>;

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
  frequency: enumParam(FREQUENCY_FILTERS),
  mode: enumParam(["live", "test"]),
  source: enumParam(donationSources),
  /** The gifts one CSV import created (issue 23): "View the imported donations" links here. */
  importId: text(64),
  segment: enumParam(["retained", "lapsed"]),
  minAmountMinor: minorParam,
  maxAmountMinor: minorParam,
  trashed: flagParam,
});
export type DonationSearch = z.infer<typeof donationSearch>;

/**
 * DESIGN §4's counted donations as list filters (the trash is excluded by default). Here rather
 * than in ./filters.ts: the dashboard's tiles link with it, and it is a few bytes.
 */
export const COUNTED_FILTER = {
  status: ["completed", "partially_refunded"] as ("completed" | "partially_refunded")[],
  mode: "live" as const,
};
