/**
 * Organization badges (DESIGN §4): manual ones granted by admins, automatic ones recomputed nightly.
 * The CHECK organization_badge_known (worker/db/domain.ts) must list the same keys.
 */
import { z } from "zod/mini";
import { instant } from "./schemas";

export const BADGES = {
  verified_organization: {
    name: "Verified organization",
    kind: "manual",
    description: "Identity and bank details checked by the platform.",
  },
  registered_charity: {
    name: "Registered charity",
    kind: "manual",
    description: "Registration with a charity regulator confirmed.",
  },
  transparent: {
    name: "Transparent",
    kind: "manual",
    description: "Publishes finances and reports on how donations are used.",
  },
  top_fundraiser: {
    name: "Top fundraiser",
    kind: "automatic",
    description: "Automatic: top 10 % of organizations by donations in the last 12 months.",
  },
  goal_achiever: {
    name: "Goal achiever",
    kind: "automatic",
    description: "Automatic: has a campaign that reached its goal.",
  },
} as const;

export type BadgeKey = keyof typeof BADGES;

/** Only the nightly job grants the automatic ones. */
const manualBadges = ["verified_organization", "registered_charity", "transparent"] as const;

export const badgeName = (key: string) => (BADGES as Record<string, { name: string }>)[key]?.name ?? key;

export const badgeGrantInput = z.object({
  organizationId: z.string().check(z.minLength(1)),
  badge: z.enum(manualBadges),
  /** Evidence: what was checked, a registry link… */
  reason: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  expiresAt: z.optional(z.nullable(instant)),
});
export type BadgeGrantInput = z.infer<typeof badgeGrantInput>;

export const badgeRevokeInput = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  reason: z.string().check(z.trim(), z.minLength(3, "Say why the badge is revoked"), z.maxLength(500)),
});
