/**
 * A donation's forms (DESIGN §4, docs/architecture.md "add a field"): the browser refuses exactly what
 * the server would. zod/mini, to keep the portal's chunks small (decision 012).
 */
import { z } from "zod/mini";
import { amountMinor, currencyCode, giftInstant } from "./schemas";

/** Processor gifts carry the processor's own method. */
export const manualPaymentMethods = ["cash", "check", "bank_transfer", "card", "other"] as const;
export const donationFrequencies = ["one_time", "monthly", "quarterly", "annually"] as const;
export const tributeTypes = ["in_honor", "in_memory"] as const;
export const donationModes = ["live", "test"] as const;

const text = (max: number) => z.nullish(z.string().check(z.trim(), z.maxLength(max)));
const ref = () => z.nullable(z.string().check(z.minLength(1)));

export const manualDonationInput = z.strictObject({
  donorId: ref(),
  campaignId: ref(),
  campaignItemId: z.optional(ref()),
  itemQuantity: z._default(z.int().check(z.minimum(0), z.maximum(10_000)), 0),
  /** The recurring plan this gift pays (a standing order); the gift joins it. */
  planId: z.optional(ref()),
  amountMinor,
  currency: currencyCode,
  paymentMethod: z.enum(manualPaymentMethods),
  paymentReference: text(100),
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

/** The server also checks: the amount changes on manual entries only, never below what was refunded. */
export const donationChanges = z.strictObject({
  message: text(1000),
  internalNote: text(2000),
  tributeType: z.nullish(z.enum(tributeTypes)),
  tributeName: text(200),
  anonymous: z.optional(z.boolean()),
  campaignId: z.optional(ref()),
  /** Changing the campaign clears it unless given. */
  campaignItemId: z.optional(ref()),
  itemQuantity: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  amountMinor: z.optional(amountMinor),
});
export type DonationChanges = z.infer<typeof donationChanges>;
