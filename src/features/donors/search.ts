/**
 * The /donors URL state (DESIGN §4 lists): every filter of donors.list, validated by zod; a
 * hand-edited or stale value falls back to "no filter" instead of an error page.
 */
import { type DonorType, donorKinds, donorTypes } from "@core/donor-types";
import { z } from "zod/mini";
import { dayParam, enumParam, flagParam, listSearchWith, minorParam, opt } from "~/lib/search-params";

export { donorTypes };

export const donorSorts = ["created", "name", "lifetime", "lastGift"] as const;
export const donorTypeLabels: Record<DonorType, string> = {
  new: "No gifts yet",
  one_time: "One-time",
  repeat: "Repeat",
  recurring: "Recurring",
};

const day = dayParam;
const minor = minorParam;
const flag = flagParam;
const id = opt(z.string().check(z.minLength(1), z.maxLength(100)));

export const donorsSearch = listSearchWith(donorSorts, "created", {
  tagId: id,
  tierId: id,
  importId: id,
  type: enumParam(donorKinds),
  donorType: enumParam(donorTypes),
  lastGiftFrom: day,
  lastGiftTo: day,
  minLifetimeMinor: minor,
  maxLifetimeMinor: minor,
  emailOptIn: flag,
  phoneOptIn: flag,
  mailOptIn: flag,
});

export type DonorsSearch = z.infer<typeof donorsSearch>;

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
