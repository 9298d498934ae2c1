/**
 * The /donors URL state (DESIGN §4 lists): every filter of donors.list, validated by zod; a
 * hand-edited or stale value falls back to "no filter" instead of an error page. Its readers and
 * words are in ./filters.ts, so the route tree (every page's entry chunk) carries the schema only
 * (docs/decisions/012).
 */
import { donorKinds, donorTypes } from "@core/donor-types";
import { z } from "zod/mini";
import { dayParam, enumParam, flagParam, listSearchWith, minorParam, opt } from "~/lib/search-params";

export { donorTypes };

const donorSorts = ["created", "name", "lifetime", "lastGift"] as const;

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
