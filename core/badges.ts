/**
 * The platform's organization badges (DESIGN §4): manual ones granted by platform admins with their
 * evidence, automatic ones recomputed nightly (worker/badges/service.ts). One catalog for the
 * server's answers and the pages that name a badge. The database's CHECK
 * organization_badge_known (worker/db/domain.ts) lists the same keys.
 */
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
