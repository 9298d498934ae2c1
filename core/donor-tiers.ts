/** Donor tier ladders (DESIGN §4: [min, max), non-overlapping, per basis; decision 025). */

export interface TierRange {
  id: string;
  basis: string;
  minMinor: number;
  maxMinor: number | null;
}

/** Only a touching tier on the same basis takes a deleted tier's donors, growing over its range. */
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

export function moveTargets<T extends TierRange>(tiers: readonly T[], id: string) {
  const tier = tiers.find((t) => t.id === id);
  if (!tier) return [];
  return tiers
    .map((t) => ({ tier: t, range: mergedRange(tier, t) }))
    .filter((x): x is { tier: T; range: { minMinor: number; maxMinor: number | null } } => !!x.range)
    .sort((a, b) => a.tier.minMinor - b.tier.minMinor);
}

/** Amounts no tier of a basis covers; `maxMinor` null: and above. */
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
 * The highest minimum wins where two bases' ladders overlap. worker/ledger/donor-stats.ts NEW_TIER must
 * apply the same rule in SQL.
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
 * [min, max) bands from 0 up, each one tier's (or none's) by `tierForAmount`, so SQL counts per band with
 * two comparisons. Membership changes only at bounds, so a band's first amount decides it.
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
