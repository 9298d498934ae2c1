/**
 * The platform's organization badges (DESIGN §4): manual ones granted by platform admins with their
 * evidence, automatic ones recomputed nightly (worker/badges/service.ts). One catalog for the
 * server's answers and the pages that name a badge. The database's CHECK
 * organization_badge_known (worker/db/domain.ts) lists the same keys.
 */
// zod/mini, like the other form schemas in core (core/organization.ts says why).
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
    description: "Publishes finances and reports on how gifts are used.",
  },
  top_fundraiser: {
    name: "Top fundraiser",
    kind: "automatic",
    description: "Automatic: top 10 % of organizations by gifts in the last 12 months.",
  },
  goal_achiever: {
    name: "Goal achiever",
    kind: "automatic",
    description: "Automatic: has a campaign that reached its goal.",
  },
} as const;

export type BadgeKey = keyof typeof BADGES;

/** The badges an admin grants by hand (the automatic ones only the nightly job grants). */
export const manualBadges = ["verified_organization", "registered_charity", "transparent"] as const;

/** A badge's display name; the key itself for one the catalog does not know. */
export const badgeName = (key: string) => (BADGES as Record<string, { name: string }>)[key]?.name ?? key;

/** Granting a manual badge (badges.grant and the Grant form of /badges). */
export const badgeGrantInput = z.object({
  organizationId: z.string().check(z.minLength(1)),
  badge: z.enum(manualBadges),
  /** Evidence: what was checked, a registry link… */
  reason: z.optional(z.string().check(z.trim(), z.maxLength(500))),
  expiresAt: z.optional(z.nullable(instant)),
});
export type BadgeGrantInput = z.infer<typeof badgeGrantInput>;

/** Revoking a badge needs a reason (badges.revoke). */
export const badgeRevokeInput = z.strictObject({
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  reason: z.string().check(z.trim(), z.minLength(3, "Say why the badge is revoked"), z.maxLength(500)),
});
