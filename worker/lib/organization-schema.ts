/**
 * The organization profile (DESIGN §4, §5.3: one schema shared by the form and the tRPC input).
 * Pure, so the browser validates with the same rules before sending (decision 007).
 */
import { z } from "zod";
import { CURRENCIES } from "./money";

export const organizationTypes = [
  "nonprofit",
  "charity",
  "foundation",
  "community_group",
  "school",
  "religious",
  "other",
] as const;

export const organizationInput = z
  .object({
    name: z.string().trim().min(2).max(120),
    legalName: z.string().trim().max(200).nullable().optional(),
    type: z.enum(organizationTypes),
    registrationId: z.string().trim().max(60).nullable().optional(),
    taxId: z.string().trim().max(60).nullable().optional(),
    country: z
      .union([
        z
          .string()
          .trim()
          .regex(/^[A-Za-z]{2}$/, "Use the 2-letter ISO country code"),
        z.literal(""),
      ])
      .nullable()
      .optional(),
    addressLine1: z.string().trim().max(200).nullable().optional(),
    addressLine2: z.string().trim().max(200).nullable().optional(),
    city: z.string().trim().max(100).nullable().optional(),
    region: z.string().trim().max(100).nullable().optional(),
    postalCode: z.string().trim().max(20).nullable().optional(),
    contactEmail: z
      .union([z.email(), z.literal("")])
      .nullable()
      .optional(),
    contactPhone: z.string().trim().max(40).nullable().optional(),
    website: z
      .union([z.url(), z.literal("")])
      .nullable()
      .optional(),
    // An image uploaded to /api/media (docs/decisions/008-media-in-d1.md) or an https URL.
    logoUrl: z
      .union([
        z.string().regex(/^\/api\/media\/[A-Za-z0-9_-]{16,64}$/),
        z.url({ protocol: /^https$/ }),
        z.literal(""),
      ])
      .nullable()
      .optional(),
    mission: z.string().trim().max(500).nullable().optional(),
    description: z.string().trim().max(5000).nullable().optional(),
    defaultCurrency: z.enum(CURRENCIES),
    timeZone: z.string().refine((tz) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, "Unknown time zone"),
    fiscalYearStartMonth: z.number().int().min(1).max(12),
  })
  .strict();

export type OrganizationInput = z.infer<typeof organizationInput>;

export const memberRoles = ["owner", "admin", "organizer", "viewer"] as const;
