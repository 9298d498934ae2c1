/** Status machines (DESIGN §4). A refused transition answers 422 with the allowed targets. */
export const campaignStatuses = ["draft", "active", "paused", "completed", "archived"] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

/** Derived at read time, never stored; worker/campaigns/queries.ts `phaseSql` must agree (DESIGN §4). */
export const campaignPhases = ["scheduled", "live", "goal_reached", "ended"] as const;
export type CampaignPhase = (typeof campaignPhases)[number];

export const campaignTransitions: Record<CampaignStatus, CampaignStatus[]> = {
  draft: ["active", "archived"],
  active: ["paused", "completed"],
  paused: ["active", "completed"],
  completed: ["archived"],
  archived: ["draft"],
};

export const donationStatuses = [
  "pending",
  "processing",
  "completed",
  "failed",
  "cancelled",
  "abandoned",
  "refunded",
  "partially_refunded",
  "disputed",
] as const;
export type DonationStatus = (typeof donationStatuses)[number];

export const donationTransitions: Record<DonationStatus, DonationStatus[]> = {
  pending: ["processing", "completed", "failed", "cancelled", "abandoned"],
  processing: ["completed", "failed"],
  failed: ["pending"],
  completed: ["partially_refunded", "refunded", "disputed", "cancelled"],
  partially_refunded: ["refunded", "disputed"],
  disputed: ["completed", "refunded"],
  refunded: [],
  cancelled: [],
  abandoned: [],
};

/** Only a manual gift is cancelled once completed; a processor gift is refunded instead. */
export function allowedDonationTargets(status: DonationStatus, source: string): DonationStatus[] {
  const all = donationTransitions[status];
  return status === "completed" && source !== "manual" ? all.filter((s) => s !== "cancelled") : all;
}

/** Money given back, a gift undone, and every admin correction need a reason (domain.md §2.5). */
const REASON_STATUSES: readonly DonationStatus[] = ["refunded", "partially_refunded", "cancelled"];

export function needsReason(target: string, correction = false): boolean {
  return correction || (REASON_STATUSES as readonly string[]).includes(target);
}

/** DESIGN §4 "counted donations": completed or partially refunded, live, not trashed; net of refunds. */
const COUNTED_STATUSES: DonationStatus[] = ["completed", "partially_refunded"];
export const COUNTED_SQL = (alias = "donation") =>
  `${alias}.status IN ('completed','partially_refunded') AND ${alias}.mode = 'live' AND ${alias}.trashed_at IS NULL`;

/** COUNTED_SQL("d") less what the filters guarantee: null when no row counts, "" when all do. */
export function countedWithin(f: {
  status?: readonly string[];
  mode?: string;
  trashed?: boolean;
}): string | null {
  if (f.trashed) return null;
  const terms: string[] = [];
  const counted: string[] = COUNTED_STATUSES;
  if (f.status?.length) {
    const inside = f.status.filter((s) => counted.includes(s));
    if (!inside.length) return null;
    if (inside.length < f.status.length)
      terms.push(`d.status IN (${counted.map((s) => `'${s}'`).join(",")})`);
  } else terms.push(`d.status IN (${counted.map((s) => `'${s}'`).join(",")})`);
  if (f.mode === "test") return null;
  if (f.mode !== "live") terms.push("d.mode = 'live'");
  return terms.join(" AND ");
}

export function isCounted(d: { status: string; mode: string; trashedAt: number | null }) {
  return (COUNTED_STATUSES as string[]).includes(d.status) && d.mode === "live" && d.trashedAt === null;
}
