/** Donor tier SQL (docs/architecture.md: queries): the ladder and the manual lock. */
import type { Guard } from "../../lib/guard";

export interface TierInput {
  name: string;
  basis: "lifetime" | "rolling_12m";
  minMinor: number;
  maxMinor: number | null;
  color: string;
}

export async function listTiers(db: D1Database, orgId: string) {
  const { results } = await db
    .prepare(
      "SELECT t.id, t.name, t.basis, t.min_minor AS minMinor, t.max_minor AS maxMinor, t.color, (SELECT count(*) FROM donor d WHERE d.tier_id = t.id AND d.merged_into_id IS NULL) AS donors FROM donor_tier t WHERE t.organization_id = ? ORDER BY t.min_minor",
    )
    .bind(orgId)
    .all<{
      id: string;
      name: string;
      basis: string;
      minMinor: number;
      maxMinor: number | null;
      color: string;
      donors: number;
    }>();
  return results;
}

/**
 * [min, max) ranges of one ladder (organization + basis) may touch but never overlap (research
 * domain.md §2.4). Binds: ?1 the tier's own id, ?2 organization, ?4 basis, ?5 min, ?6 max.
 */
const OVERLAP_SQL = `SELECT 1 FROM donor_tier o WHERE o.organization_id = ?2 AND o.basis = ?4 AND o.id != ?1
  AND o.min_minor < COALESCE(?6, 9223372036854775807) AND COALESCE(o.max_minor, 9223372036854775807) > ?5`;

/**
 * The overlap check is part of the insert, so two overlapping tiers created at once cannot both
 * land (D1 runs one statement at a time): no changes means the range overlapped.
 */
export function insertTier(db: D1Database, id: string, orgId: string, t: TierInput, now: number) {
  return db
    .prepare(
      `INSERT INTO donor_tier (id, organization_id, name, basis, min_minor, max_minor, color, created_at, updated_at)
               SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8 WHERE NOT EXISTS (${OVERLAP_SQL})`,
    )
    .bind(id, orgId, t.name, t.basis, t.minMinor, t.maxMinor, t.color, now);
}

/** Like insertTier: the update lands only if the new range overlaps no other tier. */
export function updateTier(db: D1Database, id: string, orgId: string, t: TierInput, now: number) {
  return db
    .prepare(
      `UPDATE donor_tier SET name = ?3, basis = ?4, min_minor = ?5, max_minor = ?6, color = ?7, updated_at = ?8
                WHERE id = ?1 AND organization_id = ?2 AND NOT EXISTS (${OVERLAP_SQL})`,
    )
    .bind(id, orgId, t.name, t.basis, t.minMinor, t.maxMinor, t.color, now);
}

/** The tier exists (the insert landed). */
export const tierExists = (id: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM donor_tier WHERE id = ?${p})`,
  args: [id],
});

/** The tier holds what this update wrote (the update landed). */
export const tierUpdated = (id: string, now: number, t: TierInput): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM donor_tier WHERE id = ?${p} AND updated_at = ?${p + 1} AND min_minor = ?${p + 2} AND max_minor IS ?${p + 3} AND basis = ?${p + 4})`,
  args: [id, now, t.minMinor, t.maxMinor, t.basis],
});

/** The tier a range overlaps, to name it in the refusal. */
export function overlappingTier(
  db: D1Database,
  orgId: string,
  t: { basis: string; minMinor: number; maxMinor: number | null },
  id: string,
) {
  return db
    .prepare(
      "SELECT name FROM donor_tier WHERE organization_id = ? AND basis = ? AND id != ? AND min_minor < COALESCE(?, 9223372036854775807) AND COALESCE(max_minor, 9223372036854775807) > ?",
    )
    .bind(orgId, t.basis, id, t.maxMinor, t.minMinor)
    .first<{ name: string }>();
}

export function selectTierValues(db: D1Database, orgId: string, id: string) {
  return db
    .prepare(
      "SELECT name, basis, min_minor AS minMinor, max_minor AS maxMinor, color FROM donor_tier WHERE id = ? AND organization_id = ?",
    )
    .bind(id, orgId)
    .first();
}

export function tierIdExists(db: D1Database, orgId: string, id: string) {
  return db.prepare("SELECT id FROM donor_tier WHERE id = ? AND organization_id = ?").bind(id, orgId).first();
}

/** The tier's donors lose it, then the tier goes: [clear, delete]. */
export function deleteTierStatements(db: D1Database, orgId: string, id: string) {
  return [
    db.prepare("UPDATE donor SET tier_id = NULL WHERE tier_id = ? AND organization_id = ?").bind(id, orgId),
    db.prepare("DELETE FROM donor_tier WHERE id = ? AND organization_id = ?").bind(id, orgId),
  ] as const;
}

/**
 * Locks or unlocks a donor's tier; with `set`, the chosen tier (or none) replaces the current one
 * and the replaced one becomes the previous tier.
 */
export function setTierLock(
  db: D1Database,
  orgId: string,
  donorId: string,
  l: { locked: boolean; set: boolean; tierId: string | null },
) {
  return db
    .prepare(
      `UPDATE donor SET tier_locked = ?1,
               previous_tier_id = CASE WHEN ?2 AND ?3 IS NOT tier_id THEN tier_id ELSE previous_tier_id END,
               tier_id = CASE WHEN ?2 THEN ?3 ELSE tier_id END, updated_at = ?4
             WHERE id = ?5 AND organization_id = ?6`,
    )
    .bind(l.locked ? 1 : 0, l.set ? 1 : 0, l.tierId, Date.now(), donorId, orgId);
}
