/** The organization profile (DESIGN §4, §5.3): one schema for the form and tRPC (decision 022). */
// zod/mini keeps zod's core out of the entry chunk (decision 012); both APIs throw `$ZodError`.
import { z } from "zod/mini";
import { currencyCode, httpUrl } from "./schemas";

export const organizationTypes = [
  "nonprofit",
  "charity",
  "foundation",
  "community_group",
  "school",
  "religious",
  "other",
] as const;

const text = (max: number) => z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max))));

export const organizationInput = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(2), z.maxLength(120)),
  legalName: text(200),
  type: z.enum(organizationTypes),
  registrationId: text(60),
  taxId: text(60),
  country: z.optional(
    z.nullable(
      z.union([
        z.string().check(z.trim(), z.regex(/^[A-Za-z]{2}$/, "Use the 2-letter ISO country code")),
        z.literal(""),
      ]),
    ),
  ),
  addressLine1: text(200),
  addressLine2: text(200),
  city: text(100),
  region: text(100),
  postalCode: text(20),
  contactEmail: z.optional(z.nullable(z.union([z.email(), z.literal("")]))),
  contactPhone: text(40),
  // Never javascript:, data: or a scheme-less "//host" (decision 019).
  website: z.optional(z.nullable(z.union([httpUrl, z.literal("")]))),
  logoUrl: z.optional(
    z.nullable(
      z.union([
        z.string().check(z.regex(/^\/api\/media\/[A-Za-z0-9_-]{16,64}$/)),
        z.url({ protocol: /^https$/ }),
        z.literal(""),
      ]),
    ),
  ),
  mission: text(500),
  description: text(5000),
  defaultCurrency: currencyCode,
  timeZone: z.string().check(
    z.refine((tz) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, "Unknown time zone"),
  ),
  fiscalYearStartMonth: z.number().check(z.int(), z.minimum(1), z.maximum(12)),
});

export type OrganizationInput = z.infer<typeof organizationInput>;

export const memberRoles = ["owner", "admin", "organizer", "viewer"] as const;
export type MemberRole = (typeof memberRoles)[number];

export const memberInviteInput = z.strictObject({
  email: z.email().check(z.maxLength(254)),
  role: z.enum(memberRoles),
});
export type MemberInviteInput = z.infer<typeof memberInviteInput>;
