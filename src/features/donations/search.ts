/**
 * The /donations URL state (DESIGN §4: filters in the URL). Its two readers (the tRPC list input
 * and the export's query string) are ./filters.ts: a route's search schema loads with the route
 * tree on every page (docs/decisions/012), so this module holds the schema only; its value sets
 * come from core/labels.ts, which imports nothing (core/donation.ts's form schemas stay out).
 */

import { donationSources, frequencyFilters, PAYMENT_METHOD_MAX } from "@core/labels";
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

export const donationSearch = z.extend(listSearch, {
  sort: withDefault(z.enum(["date", "amount", "status", "number"]), "date"),
  status: facetParam(donationStatuses),
  from: day,
  to: day,
  campaignId: text(64),
  campaignItemId: text(64),
  donorId: text(64),
  currency: opt(currencyCode),
  paymentMethod: text(PAYMENT_METHOD_MAX),
  frequency: enumParam(frequencyFilters),
  /**
   * Live gifts unless asked (issue 53, M18): test gifts are a processor's rehearsals, kept out of
   * sight as Stripe keeps its test mode; "all" shows both.
   */
  mode: withDefault(z.enum(["live", "test", "all"]), "live"),
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
