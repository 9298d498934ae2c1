// Donor tiers: a ladder of [min, max) ranges that never overlap, recomputed in every change's batch.
import { mergedRange } from "@core/donor-tiers";
import { type Database, orgDb } from "../../db/databases";
import { tierStatement } from "../../ledger/donor-stats";
import { auditStatement } from "../../lib/audit";
import { fail } from "../../lib/fail";
import { allGuards } from "../../lib/guard";
import { generateId } from "../../lib/ids";
import type { OrgActor } from "../../trpc/init";
import { loadDonor } from "../service";
import {
  deleteTier,
  insertTier,
  listTiers,
  overlappingTier,
  selectTierValues,
  setTierLock,
  type TierInput,
  tierDonorCounts,
  tierExists,
  tierHasRange,
  tierIdExists,
  tierUpdated,
  updateTier,
  widenTier,
} from "./queries";

export const tierList = (ctx: OrgActor) => listTiers(orgDb(ctx), ctx.org.id);

async function refuseOverlap(db: Database, orgId: string, t: TierInput, id: string): Promise<never> {
  const o = await overlappingTier(db, orgId, t, id);
  fail("CONFLICT", o ? `This range overlaps the tier "${o.name}"` : "This range overlaps another tier", {
    field: "minMinor",
  });
}

export async function createTier(ctx: OrgActor, input: TierInput) {
  const db = orgDb(ctx);
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

export async function editTier(ctx: OrgActor, input: TierInput & { id: string }) {
  const db = orgDb(ctx);
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

type TierDonorsChoice = { action: "reevaluate" } | { action: "move"; tierId: string };

// Decision 025: `reevaluate` unlocks and re-ranks the tier's donors; `move` widens a touching neighbour over
// the deleted range (no gap, so the next recompute agrees) and moves them there, locks kept.
export async function removeTier(
  ctx: OrgActor,
  id: string,
  choice: TierDonorsChoice = { action: "reevaluate" },
) {
  const db = orgDb(ctx);
  const orgId = ctx.org.id;
  const tier = await selectTierValues(db, orgId, id);
  if (!tier) fail("NOT_FOUND", "Tier not found");
  const now = Date.now();
  const counts = (await tierDonorCounts(db, orgId, id)) ?? { donors: 0, locked: 0 };
  // Every statement holds only while the tier is as read: a concurrent delete or edit wins (decision 020).
  const still = tierHasRange(id, tier);

  if (choice.action === "reevaluate") {
    const r = await db.batch([
      auditStatement(
        ctx,
        {
          action: "tier.delete",
          entityType: "donor_tier",
          entityId: id,
          before: tier,
          after: { donors: "reevaluate", moved: counts.donors, unlocked: counts.locked },
        },
        still,
      ),
      deleteTier.unlock(db, orgId, id, now, still),
      deleteTier.remove(db, orgId, id, still),
      tierStatement(db, orgId, null),
      deleteTier.forget(db, orgId, id),
    ]);
    if (!r[2]?.meta.changes) fail("CONFLICT", "The tier changed meanwhile; reload and try again");
    return { id, action: "reevaluate" as const, donors: counts.donors, unlocked: counts.locked, to: null };
  }

  if (choice.tierId === id) fail("BAD_REQUEST", "Choose another tier for its donors", { field: "tierId" });
  const target = await selectTierValues(db, orgId, choice.tierId);
  if (!target) fail("NOT_FOUND", "Tier not found", { field: "tierId" });
  const widened = mergedRange({ id, ...tier }, { id: choice.tierId, ...target });
  if (!widened)
    fail(
      "UNPROCESSABLE_CONTENT",
      `Donors can move only to a tier next to "${tier.name}" on the same basis; "${target.name}" is not`,
      { field: "tierId" },
    );
  const both = allGuards(still, tierHasRange(choice.tierId, target)) ?? still;
  // After the widening, the tier's range is the witness that this batch's first write landed.
  const landed = allGuards(tierHasRange(choice.tierId, widened), tierExists(id)) ?? still;
  const r = await db.batch([
    auditStatement(
      ctx,
      {
        action: "tier.delete",
        entityType: "donor_tier",
        entityId: id,
        before: tier,
        after: { donors: "move", tierId: choice.tierId, moved: counts.donors, range: widened },
      },
      both,
    ),
    widenTier(db, orgId, choice.tierId, widened, now, both),
    deleteTier.moveTo(db, orgId, id, choice.tierId, now, landed),
    deleteTier.remove(db, orgId, id, landed),
    tierStatement(db, orgId, null),
    deleteTier.forget(db, orgId, id),
  ]);
  if (!r[1]?.meta.changes) fail("CONFLICT", "The tiers changed meanwhile; reload and try again");
  return {
    id,
    action: "move" as const,
    donors: r[2]?.meta.changes ?? counts.donors,
    unlocked: 0,
    to: { id: choice.tierId, name: target.name },
  };
}

/** Bloomerang's override: the recompute skips a locked donor; unlocking hands it back to the ladder. */
export async function lockTier(
  ctx: OrgActor,
  input: { donorId: string; locked: boolean; tierId?: string | null },
) {
  const db = orgDb(ctx);
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
