import type { Database } from "../../db/databases";
import type { Guard } from "../../lib/guard";

export interface TierInput {
  name: string;
  basis: "lifetime" | "rolling_12m";
  minMinor: number;
  maxMinor: number | null;
  color: string;
}

// One batch, so one snapshot: sum(tiers.donors) + noTier = total. A donor counts once, as on /donors
// (anonymized ones too); a tier id that names no tier of the organization counts as no tier.
export async function listTiers(db: Database, orgId: string) {
  const [tiers, totals] = await db.batch([
    db
      .prepare(
        `SELECT t.id, t.name, t.basis, t.min_minor AS minMinor, t.max_minor AS maxMinor, t.color,
                (SELECT count(*) FROM donor d WHERE d.organization_id = t.organization_id AND d.tier_id = t.id AND d.merged_into_id IS NULL) AS donors
           FROM donor_tier t WHERE t.organization_id = ?1 ORDER BY t.min_minor, t.basis`,
      )
      .bind(orgId),
    db
      .prepare(
        `SELECT count(*) AS total,
                COALESCE(SUM(CASE WHEN d.tier_id IS NULL OR NOT EXISTS (SELECT 1 FROM donor_tier t WHERE t.id = d.tier_id AND t.organization_id = d.organization_id) THEN 1 ELSE 0 END), 0) AS noTier
           FROM donor d WHERE d.organization_id = ?1 AND d.merged_into_id IS NULL`,
      )
      .bind(orgId),
  ]);
  const t = totals?.results[0] as { total: number; noTier: number } | undefined;
  return {
    tiers: (tiers?.results ?? []) as {
      id: string;
      name: string;
      basis: "lifetime" | "rolling_12m";
      minMinor: number;
      maxMinor: number | null;
      color: string;
      donors: number;
    }[],
    noTier: t?.noTier ?? 0,
    total: t?.total ?? 0,
  };
}

// [min, max) ranges of one ladder (organization + basis) may touch but never overlap.
// Binds: ?1 the tier's own id, ?2 organization, ?4 basis, ?5 min, ?6 max.
const OVERLAP_SQL = `SELECT 1 FROM donor_tier o WHERE o.organization_id = ?2 AND o.basis = ?4 AND o.id != ?1
  AND o.min_minor < COALESCE(?6, 9223372036854775807) AND COALESCE(o.max_minor, 9223372036854775807) > ?5`;

// The overlap check is part of the insert, so two overlapping tiers created at once cannot both land
// (D1 runs one statement at a time): no changes means the range overlapped.
export function insertTier(db: Database, id: string, orgId: string, t: TierInput, now: number) {
  return db
    .prepare(
      `INSERT INTO donor_tier (id, organization_id, name, basis, min_minor, max_minor, color, created_at, updated_at)
               SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8 WHERE NOT EXISTS (${OVERLAP_SQL})`,
    )
    .bind(id, orgId, t.name, t.basis, t.minMinor, t.maxMinor, t.color, now);
}

/** Like insertTier: the update lands only if the new range overlaps no other tier. */
export function updateTier(db: Database, id: string, orgId: string, t: TierInput, now: number) {
  return db
    .prepare(
      `UPDATE donor_tier SET name = ?3, basis = ?4, min_minor = ?5, max_minor = ?6, color = ?7, updated_at = ?8
                WHERE id = ?1 AND organization_id = ?2 AND NOT EXISTS (${OVERLAP_SQL})`,
    )
    .bind(id, orgId, t.name, t.basis, t.minMinor, t.maxMinor, t.color, now);
}

export const tierExists = (id: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM donor_tier WHERE id = ?${p})`,
  args: [id],
});

/** The update landed. */
export const tierUpdated = (id: string, now: number, t: TierInput): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM donor_tier WHERE id = ?${p} AND updated_at = ?${p + 1} AND min_minor = ?${p + 2} AND max_minor IS ?${p + 3} AND basis = ?${p + 4})`,
  args: [id, now, t.minMinor, t.maxMinor, t.basis],
});

/** To name it in the refusal. */
export function overlappingTier(
  db: Database,
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

export function selectTierValues(db: Database, orgId: string, id: string) {
  return db
    .prepare(
      "SELECT name, basis, min_minor AS minMinor, max_minor AS maxMinor, color FROM donor_tier WHERE id = ? AND organization_id = ?",
    )
    .bind(id, orgId)
    .first<TierInput>();
}

export function tierIdExists(db: Database, orgId: string, id: string) {
  return db.prepare("SELECT id FROM donor_tier WHERE id = ? AND organization_id = ?").bind(id, orgId).first();
}

export function tierDonorCounts(db: Database, orgId: string, id: string) {
  return db
    .prepare(
      "SELECT count(*) AS donors, COALESCE(SUM(tier_locked), 0) AS locked FROM donor WHERE organization_id = ? AND tier_id = ? AND merged_into_id IS NULL",
    )
    .bind(orgId, id)
    .first<{ donors: number; locked: number }>();
}

export const tierHasRange = (id: string, t: { minMinor: number; maxMinor: number | null }): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM donor_tier WHERE id = ?${p} AND min_minor = ?${p + 1} AND max_minor IS ?${p + 2})`,
  args: [id, t.minMinor, t.maxMinor],
});

/** For the neighbour that takes a deleted tier's donors. */
export function widenTier(
  db: Database,
  orgId: string,
  id: string,
  range: { minMinor: number; maxMinor: number | null },
  now: number,
  guard: Guard,
) {
  return db
    .prepare(
      `UPDATE donor_tier SET min_minor = ?1, max_minor = ?2, updated_at = ?3 WHERE id = ?4 AND organization_id = ?5 AND ${guard.sql(6)}`,
    )
    .bind(range.minMinor, range.maxMinor, now, id, orgId, ...guard.args);
}

// The statements around the recompute (worker/ledger/donor-stats.ts `tierStatement`), each only if `guard`
// holds; `forget`: no donor keeps the deleted tier as its previous one (the audit row keeps the history).
export const deleteTier = {
  unlock: (db: Database, orgId: string, id: string, now: number, guard: Guard) =>
    db
      .prepare(
        `UPDATE donor SET tier_locked = 0, updated_at = ?1 WHERE organization_id = ?2 AND tier_id = ?3 AND tier_locked = 1 AND ${guard.sql(4)}`,
      )
      .bind(now, orgId, id, ...guard.args),
  moveTo: (db: Database, orgId: string, id: string, to: string, now: number, guard: Guard) =>
    db
      .prepare(
        `UPDATE donor SET tier_id = ?1, previous_tier_id = NULL, updated_at = ?2 WHERE organization_id = ?3 AND tier_id = ?4 AND merged_into_id IS NULL AND ${guard.sql(5)}`,
      )
      .bind(to, now, orgId, id, ...guard.args),
  remove: (db: Database, orgId: string, id: string, guard: Guard) =>
    db
      .prepare(`DELETE FROM donor_tier WHERE id = ?1 AND organization_id = ?2 AND ${guard.sql(3)}`)
      .bind(id, orgId, ...guard.args),
  forget: (db: Database, orgId: string, id: string) =>
    db
      .prepare(
        "UPDATE donor SET previous_tier_id = NULL WHERE organization_id = ?1 AND previous_tier_id = ?2 AND NOT EXISTS (SELECT 1 FROM donor_tier WHERE id = ?2)",
      )
      .bind(orgId, id),
};

/** With `set`, the chosen tier (or none) replaces the current one, which becomes the previous tier. */
export function setTierLock(
  db: Database,
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
