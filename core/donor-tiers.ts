/**
 * Donor tier ladders (DESIGN §4: min inclusive, max exclusive, non-overlapping, per basis), the
 * rules both the delete dialog and the server need (docs/decisions/025-deleting-a-tier.md).
 */

export interface TierRange {
  id: string;
  basis: string;
  minMinor: number;
  maxMinor: number | null;
}

/**
 * The range `target` takes when a deleted `tier`'s donors move to it: a tier on the same basis
 * whose range touches the deleted one grows over it; any other tier cannot take them (null).
 */
export function mergedRange(
  tier: TierRange,
  target: TierRange,
): { minMinor: number; maxMinor: number | null } | null {
  if (target.id === tier.id || target.basis !== tier.basis) return null;
  if (target.maxMinor !== null && target.maxMinor === tier.minMinor)
    return { minMinor: target.minMinor, maxMinor: tier.maxMinor };
  if (tier.maxMinor !== null && target.minMinor === tier.maxMinor)
    return { minMinor: tier.minMinor, maxMinor: target.maxMinor };
  return null;
}

/** The tiers a deleted tier's donors may move to, lower neighbour first, with their new range. */
export function moveTargets<T extends TierRange>(tiers: readonly T[], id: string) {
  const tier = tiers.find((t) => t.id === id);
  if (!tier) return [];
  return tiers
    .map((t) => ({ tier: t, range: mergedRange(tier, t) }))
    .filter((x): x is { tier: T; range: { minMinor: number; maxMinor: number | null } } => !!x.range)
    .sort((a, b) => a.tier.minMinor - b.tier.minMinor);
}

/** Amounts no tier of a basis covers (from 0 up; `maxMinor` null: and above). */
export function ladderGaps(tiers: readonly TierRange[]) {
  const gaps: { basis: string; minMinor: number; maxMinor: number | null }[] = [];
  for (const basis of [...new Set(tiers.map((t) => t.basis))]) {
    let from: number | null = 0;
    for (const t of tiers.filter((x) => x.basis === basis).sort((a, b) => a.minMinor - b.minMinor)) {
      if (from === null) break;
      if (t.minMinor > from) gaps.push({ basis, minMinor: from, maxMinor: t.minMinor });
      from = t.maxMinor === null ? null : Math.max(from, t.maxMinor);
    }
    if (from !== null) gaps.push({ basis, minMinor: from, maxMinor: null });
  }
  return gaps;
}

/**
 * The tier an amount falls in: a tier whose [min, max) holds it, the one with the highest minimum
 * when ladders of two bases overlap; null when no tier holds it. worker/donors/stats.ts NEW_TIER
 * applies the same rule in SQL to each donor's amount on the tier's basis; the giving pyramid
 * (core/reports.ts `pyramidBands`) applies it to a year's giving.
 */
export function tierForAmount<T extends Omit<TierRange, "basis">>(
  tiers: readonly T[],
  amount: number,
): T | null {
  let best: T | null = null;
  for (const t of tiers)
    if (
      t.minMinor <= amount &&
      (t.maxMinor === null || amount < t.maxMinor) &&
      (!best || t.minMinor > best.minMinor)
    )
      best = t;
  return best;
}

/**
 * [min, max) bands covering every amount from 0 up, each held by one tier (or none: `tier` null)
 * by `tierForAmount`, adjacent bands of the same tier joined. Tier membership changes only at a
 * tier's bounds, so the band between two consecutive bounds has the tier of its first amount. SQL
 * can count donors per band with two comparisons, and the bands agree with the rule everywhere.
 */
export function tierBands<T extends Omit<TierRange, "basis">>(tiers: readonly T[]) {
  const bounds = [
    ...new Set([0, ...tiers.flatMap((t) => (t.maxMinor === null ? [t.minMinor] : [t.minMinor, t.maxMinor]))]),
  ]
    .filter((b) => b >= 0)
    .sort((a, b) => a - b);
  const bands: { minMinor: number; maxMinor: number | null; tier: T | null }[] = [];
  bounds.forEach((lo, i) => {
    const hi = bounds[i + 1] ?? null;
    const tier = tierForAmount(tiers, lo);
    const last = bands[bands.length - 1];
    if (last && last.tier === tier) last.maxMinor = hi;
    else bands.push({ minMinor: lo, maxMinor: hi, tier });
  });
  return bands;
}
