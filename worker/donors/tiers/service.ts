/**
 * Donor tiers (docs/architecture.md: service): a ladder of [min, max) ranges that never overlap,
 * recomputed in the same batch as every change to it (./../stats.ts), and the manual lock.
 */
import { generateId } from "../../auth/crypto";
import { auditStatement } from "../../lib/audit";
import { fail } from "../../trpc/init";
import { type DonorCtx, loadDonor } from "../service";
import { tierStatement } from "../stats";
import {
  deleteTierStatements,
  insertTier,
  listTiers,
  overlappingTier,
  selectTierValues,
  setTierLock,
  type TierInput,
  tierExists,
  tierIdExists,
  tierUpdated,
  updateTier,
} from "./queries";

export const tierList = (ctx: DonorCtx) => listTiers(ctx.env.DB, ctx.org.id);

async function refuseOverlap(db: D1Database, orgId: string, t: TierInput, id: string): Promise<never> {
  const o = await overlappingTier(db, orgId, t, id);
  fail("CONFLICT", o ? `This range overlaps the tier "${o.name}"` : "This range overlaps another tier", {
    field: "minMinor",
  });
}

export async function createTier(ctx: DonorCtx, input: TierInput) {
  const db = ctx.env.DB;
  const id = generateId();
  const now = Date.now();
  // The insert refuses an overlap itself; the audit row exists only if the tier does.
  const [inserted] = await db.batch([
    insertTier(db, id, ctx.org.id, input, now),
    tierStatement(db, ctx.org.id, null),
    auditStatement(
      ctx,
      { action: "tier.create", entityType: "donor_tier", entityId: id, after: input },
      tierExists(id),
    ),
  ]);
  if (!inserted?.meta.changes) await refuseOverlap(db, ctx.org.id, input, id);
  return { id };
}

export async function editTier(ctx: DonorCtx, input: TierInput & { id: string }) {
  const db = ctx.env.DB;
  const { id, ...data } = input;
  const before = await selectTierValues(db, ctx.org.id, id);
  if (!before) fail("NOT_FOUND", "Tier not found");
  const now = Date.now();
  const [updated] = await db.batch([
    updateTier(db, id, ctx.org.id, data, now),
    tierStatement(db, ctx.org.id, null),
    auditStatement(
      ctx,
      { action: "tier.update", entityType: "donor_tier", entityId: id, before, after: data },
      tierUpdated(id, now, data),
    ),
  ]);
  if (!updated?.meta.changes) await refuseOverlap(db, ctx.org.id, data, id);
  return { id };
}

export async function removeTier(ctx: DonorCtx, id: string) {
  const db = ctx.env.DB;
  const r = await db.batch([
    ...deleteTierStatements(db, ctx.org.id, id),
    tierStatement(db, ctx.org.id, null),
    auditStatement(ctx, { action: "tier.delete", entityType: "donor_tier", entityId: id }),
  ]);
  if (!r[1]?.meta.changes) fail("NOT_FOUND", "Tier not found");
  return { id };
}

/**
 * Manual tier per donor (Bloomerang's override): locked, the recompute skips the donor; a chosen
 * tier is set at once and the one it replaces becomes the previous tier. Unlocking hands the donor
 * back to the ladder straight away.
 */
export async function lockTier(
  ctx: DonorCtx,
  input: { donorId: string; locked: boolean; tierId?: string | null },
) {
  const db = ctx.env.DB;
  const d = await loadDonor(db, ctx.org.id, input.donorId);
  if (d.anonymized_at) fail("UNPROCESSABLE_CONTENT", "An anonymized donor keeps the tier it had");
  if (input.tierId !== undefined && !input.locked)
    fail("BAD_REQUEST", "Choose a tier only when locking", { field: "tierId" });
  if (input.tierId && !(await tierIdExists(db, ctx.org.id, input.tierId)))
    fail("NOT_FOUND", "Tier not found", { field: "tierId" });
  const set = input.tierId !== undefined;
  await db.batch([
    setTierLock(db, ctx.org.id, d.id, { locked: input.locked, set, tierId: input.tierId ?? null }),
    tierStatement(db, ctx.org.id, d.id),
    auditStatement(ctx, {
      action: input.locked ? "donor.tier_lock" : "donor.tier_unlock",
      entityType: "donor",
      entityId: d.id,
      before: { tierId: d.tier_id, locked: !!d.tier_locked },
      after: { tierId: set ? (input.tierId ?? null) : d.tier_id, locked: input.locked },
    }),
  ]);
  return { id: d.id };
}
