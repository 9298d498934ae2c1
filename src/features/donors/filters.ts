/**
 * The /donors URL state (./search.ts) as its readers take it: the tRPC list input, the filters
 * behind the "Filters" button and the giving types' words. Apart from the schema so the route tree
 * (every page's entry chunk) carries the schema only (docs/decisions/012).
 */
import type { DonorType } from "@core/donor-types";
import type { DonorsSearch } from "./search";

export const donorTypeLabels: Record<DonorType, string> = {
  new: "No donations yet",
  one_time: "One-time",
  repeat: "Repeat",
  recurring: "Recurring",
};

/** The filters part of the URL state, as donors.list / donors.exportPage take them. */
export function donorFilters(s: DonorsSearch) {
  return {
    q: s.q || undefined,
    tagId: s.tagId,
    tierId: s.tierId,
    importId: s.importId,
    type: s.type,
    donorType: s.donorType,
    lastGiftFrom: s.lastGiftFrom,
    lastGiftTo: s.lastGiftTo,
    minLifetimeMinor: s.minLifetimeMinor,
    maxLifetimeMinor: s.maxLifetimeMinor,
    emailOptIn: s.emailOptIn,
    phoneOptIn: s.phoneOptIn,
    mailOptIn: s.mailOptIn,
  };
}

/** Filters behind the "Filters" button (tag and tier have their own selects). */
export const advancedKeys = [
  "type",
  "donorType",
  "lastGiftFrom",
  "lastGiftTo",
  "minLifetimeMinor",
  "maxLifetimeMinor",
  "emailOptIn",
  "phoneOptIn",
  "mailOptIn",
] as const;
