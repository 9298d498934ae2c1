// donations.list and the export's query string parse this one schema, so both select the same rows.
import { donationModes } from "@core/donation";
import { donationSources, frequencyFilters, PAYMENT_METHOD_MAX } from "@core/labels";
import { calendarDay, currencyCode, enumSet } from "@core/schemas";
import { donationStatuses } from "@core/status";
import { z } from "zod";
import { pageSchema } from "../lib/list";

const donationSorts = ["date", "amount", "status", "number"] as const;
export type DonationSort = (typeof donationSorts)[number];

export const donationFilters = z.object({
  status: z.optional(enumSet(donationStatuses)),
  campaignId: z.string().optional(),
  campaignItemId: z.string().optional(),
  donorId: z.string().optional(),
  /** The organization's local days, both inclusive (decision 019). */
  from: z.optional(calendarDay),
  to: z.optional(calendarDay),
  minAmountMinor: z.number().int().min(0).optional(),
  maxAmountMinor: z.number().int().min(0).optional(),
  currency: z.optional(currencyCode),
  paymentMethod: z.string().max(PAYMENT_METHOD_MAX).optional(),
  /** "recurring" is every frequency but one_time. */
  frequency: z.enum(frequencyFilters).optional(),
  mode: z.enum(donationModes).optional(),
  source: z.enum(donationSources).optional(),
  importId: z.string().min(1).max(64).optional(),
  /** As dashboard.retention defines the segments, as of now. */
  segment: z.enum(["retained", "lapsed"]).optional(),
  trashed: z.boolean().default(false),
  q: z.string().trim().max(200).optional(),
});
export type DonationFilters = z.infer<typeof donationFilters>;

export const donationListInput = donationFilters.extend({
  ...pageSchema,
  sort: z.enum(donationSorts).default("date"),
});
export type DonationListInput = z.infer<typeof donationListInput>;
