/**
 * The /donors URL state (DESIGN §4 lists): every filter of donors.list, validated by zod; a
 * hand-edited or stale value falls back to "no filter" instead of an error page.
 */
import { z } from "zod";
import { listSearchWith } from "~/components/data-table/list-search";

export const donorSorts = ["created", "name", "lifetime", "lastGift"] as const;
/** Mirrors worker/trpc/routers/donors.ts donorTypes (the browser never imports server code). */
export const donorTypes = ["new", "one_time", "repeat", "recurring"] as const;
export const donorTypeLabels: Record<(typeof donorTypes)[number], string> = {
  new: "No gifts yet",
  one_time: "One-time",
  repeat: "Repeat",
  recurring: "Recurring",
};

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);
const minor = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().catch(undefined);
const flag = z.boolean().optional().catch(undefined);

export const donorsSearch = listSearchWith(donorSorts, "created", {
  tagId: z.string().min(1).max(100).optional().catch(undefined),
  tierId: z.string().min(1).max(100).optional().catch(undefined),
  type: z.enum(["individual", "organization"]).optional().catch(undefined),
  donorType: z.enum(donorTypes).optional().catch(undefined),
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
