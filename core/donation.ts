/**
 * A donation's forms (DESIGN §4, docs/architecture.md "add a field"): one schema for the record
 * dialog and `donations.create`, one for the edit page and `donations.update`, so the browser
 * refuses before sending exactly what the server would refuse.
 *
 * zod/mini, like core/organization.ts: the record dialog loads it in the browser, where the
 * classic API would add its whole core to the portal's chunks (decision 012).
 */
import { z } from "zod/mini";
import { amountMinor, currencyCode, giftInstant } from "./schemas";

/** How an offline gift was paid (processor gifts carry the processor's own method). */
export const manualPaymentMethods = ["cash", "check", "bank_transfer", "card", "other"] as const;
export const donationFrequencies = ["one_time", "monthly", "quarterly", "annually"] as const;
export const tributeTypes = ["in_honor", "in_memory"] as const;
export const donationModes = ["live", "test"] as const;

/** Optional text: trimmed, at most `max` characters, null or absent. */
const text = (max: number) => z.nullish(z.string().check(z.trim(), z.maxLength(max)));
/** An id, or null for none. */
const ref = () => z.nullable(z.string().check(z.minLength(1)));

/** A gift recorded by hand (cash, check, bank transfer): `donations.create`. */
export const manualDonationInput = z.strictObject({
  donorId: ref(),
  campaignId: ref(),
  campaignItemId: z.optional(ref()),
  itemQuantity: z._default(z.int().check(z.minimum(0), z.maximum(10_000)), 0),
  /** The recurring plan this gift pays (a standing order, a pledge by check): it joins the plan. */
  planId: z.optional(ref()),
  amountMinor,
  currency: currencyCode,
  paymentMethod: z.enum(manualPaymentMethods),
  status: z._default(z.enum(["pending", "completed"]), "completed"),
  frequency: z._default(z.enum(donationFrequencies), "one_time"),
  donatedAt: giftInstant,
  anonymous: z._default(z.boolean(), false),
  message: text(1000),
  tributeType: z.nullish(z.enum(tributeTypes)),
  tributeName: text(200),
  internalNote: text(2000),
  mode: z._default(z.enum(donationModes), "live"),
});
export type ManualDonationInput = z.infer<typeof manualDonationInput>;

/**
 * What an edit may change (`donations.update`'s `data`): absent keys stay as they are. The amount
 * only on manual entries and never below what was refunded (the server checks both).
 */
export const donationChanges = z.strictObject({
  message: text(1000),
  internalNote: text(2000),
  tributeType: z.nullish(z.enum(tributeTypes)),
  tributeName: text(200),
  anonymous: z.optional(z.boolean()),
  campaignId: z.optional(ref()),
  /** An item of the (new) campaign, or null; changing the campaign clears it unless given. */
  campaignItemId: z.optional(ref()),
  itemQuantity: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  amountMinor: z.optional(amountMinor),
});
export type DonationChanges = z.infer<typeof donationChanges>;
