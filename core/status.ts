/** Status machines (DESIGN §4). A refused transition answers 422 with the allowed targets. */
export const campaignStatuses = ["draft", "active", "paused", "completed", "archived"] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

/**
 * A campaign's derived display phase (DESIGN §4, `campaignPhase` in core/campaign.ts): computed at
 * read time, never stored. The server presents it on every campaign and filters lists by it in SQL
 * (worker/campaigns/queries.ts `phaseSql`, which must say the same).
 */
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

/** Cancelling a completed gift is only for manual entries (a processor gift is refunded instead). */
export function allowedDonationTargets(status: DonationStatus, source: string): DonationStatus[] {
  const all = donationTransitions[status];
  return status === "completed" && source !== "manual" ? all.filter((s) => s !== "cancelled") : all;
}

/**
 * Status changes that need a reason, kept with the change in the audit log: money given back
 * (refunded, partially refunded) and a gift undone (cancelled), and every platform admin's
 * correction (domain.md §2.5). The server refuses such a change without a reason
 * (worker/donations/service.ts) and the forms ask for one exactly then.
 */
export const REASON_STATUSES: readonly DonationStatus[] = ["refunded", "partially_refunded", "cancelled"];

export function needsReason(target: string, correction = false): boolean {
  return correction || (REASON_STATUSES as readonly string[]).includes(target);
}

/** DESIGN §4 "counted donations": completed or partially refunded, live, not trashed; net of refunds. */
export const COUNTED_STATUSES: DonationStatus[] = ["completed", "partially_refunded"];
export const COUNTED_SQL = (alias = "donation") =>
  `${alias}.status IN ('completed','partially_refunded') AND ${alias}.mode = 'live' AND ${alias}.trashed_at IS NULL`;

/**
 * COUNTED_SQL("d") reduced by what a list's filters already guarantee: null when no row of the
 * filtered set can be counted, "" when every row is, else the remaining condition.
 */
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
