/**
 * Donor tags (docs/architecture.md: service): names unique per organization; tag changes on many
 * donors, all or nothing (assign) or per donor in batches (bulkAssign, decision 024).
 */
import type { BulkOutcome } from "@core/bulk";
import { generateId } from "../../auth/crypto";
import { orgDb } from "../../db/databases";
import { auditStatement } from "../../lib/audit";
import { allGuards, auditGuard } from "../../lib/guard";
import { fail } from "../../trpc/init";
import type { DonorCtx } from "../service";
import {
  assignmentStatements,
  deleteTag,
  insertTag,
  listTags,
  nameFree,
  readTagTargets,
  selectTag,
  selectTagWithDonors,
  tagExists,
  taggableGuard,
  updateTag,
} from "./queries";

export const tagList = (ctx: DonorCtx) => listTags(orgDb(ctx), ctx.org.id);

/**
 * A tag's name is unique in its organization whatever its case (donor_tag_org_name_unique). The
 * write itself is conditional on it (`nameFree`), and so is its audit row, so two writes racing
 * with one name cannot both land and nobody reads a constraint's error text; the refusal reaches
 * the form next to the name field.
 */
const nameTaken = () => fail("CONFLICT", "A tag with this name already exists", { field: "name" });

export async function createTag(ctx: DonorCtx, input: { name: string; color: string }) {
  const db = orgDb(ctx);
  const id = generateId();
  const [inserted] = await db.batch([
    insertTag(
      db,
      { id, orgId: ctx.org.id, name: input.name, color: input.color, now: Date.now() },
      nameFree(ctx.org.id, input.name, id),
    ),
    auditStatement(
      ctx,
      { action: "tag.create", entityType: "tag", entityId: id, after: input },
      tagExists(ctx.org.id, id),
    ),
  ]);
  if (!inserted?.meta.changes) nameTaken();
  return { id };
}

export async function renameTag(ctx: DonorCtx, input: { id: string; name: string; color: string }) {
  const db = orgDb(ctx);
  const before = await selectTag(db, ctx.org.id, input.id);
  if (!before) fail("NOT_FOUND", "Tag not found");
  const free = nameFree(ctx.org.id, input.name, input.id);
  // The audit row first, on the update's own condition (the update changes the name it tests).
  const [, updated] = await db.batch([
    auditStatement(
      ctx,
      {
        action: "tag.update",
        entityType: "tag",
        entityId: input.id,
        before,
        after: { name: input.name, color: input.color },
      },
      allGuards(tagExists(ctx.org.id, input.id), free),
    ),
    updateTag(db, { id: input.id, orgId: ctx.org.id, name: input.name, color: input.color }, free),
  ]);
  if (!updated?.meta.changes) {
    if (!(await selectTag(db, ctx.org.id, input.id))) fail("NOT_FOUND", "Tag not found");
    nameTaken();
  }
  return { id: input.id };
}

export async function removeTag(ctx: DonorCtx, id: string) {
  const db = orgDb(ctx);
  const tag = await selectTagWithDonors(db, ctx.org.id, id);
  if (!tag) fail("NOT_FOUND", "Tag not found");
  await db.batch([
    deleteTag(db, id),
    auditStatement(ctx, { action: "tag.delete", entityType: "tag", entityId: id, before: tag }),
  ]);
  return { id, donorsAffected: tag.donors };
}

/** A tag change: add tags, remove tags, or replace a donor's tags with these (none clears them). */
export interface TagChange {
  mode: "add" | "remove" | "replace";
  tagIds: string[];
}

/** Why a donor skipped a change it would not alter, per mode (the donor already has exactly that). */
function noChange(change: TagChange): string {
  if (change.mode === "add") return "Already tagged";
  if (change.mode === "remove") return "Not tagged";
  return change.tagIds.length ? "Already has exactly these tags" : "Has no tags";
}

/** The donor's tags after the change. */
function tagsAfter(current: readonly string[], change: TagChange): Set<string> {
  if (change.mode === "replace") return new Set(change.tagIds);
  if (change.mode === "remove") return new Set(current.filter((t) => !change.tagIds.includes(t)));
  return new Set([...current, ...change.tagIds]);
}

/**
 * One tag change on many donors, decided per donor as read: `refused` are the ids that may not take
 * it ("Not found": not this organization's donor; merged donors, whose tags went to the survivor),
 * `unchanged` those it would not alter, `changes` the rest with their tags as read. `tagsFound`
 * is false when the organization lacks one of the tags.
 */
async function planTagChange(ctx: DonorCtx, donorIds: string[], change: TagChange) {
  const read = await readTagTargets(orgDb(ctx), ctx.org.id, donorIds, change.tagIds);
  const byId = new Map(read.donors.map((d) => [d.id, d]));
  const refused = new Map<string, string>();
  const unchanged = new Map<string, string>();
  const changes: { donorId: string; before: string[] }[] = [];
  for (const id of donorIds) {
    const d = byId.get(id);
    if (!d) refused.set(id, "Not found");
    else if (!d.taggable) refused.set(id, "Merged into another donor");
    else {
      const before = JSON.parse(d.tag_ids) as string[];
      const after = tagsAfter(before, change);
      if (after.size === before.length && before.every((t) => after.has(t)))
        unchanged.set(id, noChange(change));
      else changes.push({ donorId: id, before });
    }
  }
  return { refused, unchanged, changes, tagsFound: read.tagsFound === change.tagIds.length };
}

/**
 * The one writer of tag changes (assign and bulkAssign): ONE D1 batch holding, per donor, its audit
 * row — written only if what was read still holds (`taggableGuard`, decision 020) — then the
 * assignment statements, applied to the donors whose audit row landed. Per donor, each audit row
 * checks its own donor; `whole`, the first checks every donor and the others follow it, so the
 * change lands for all or for none. Answers, per change, whether it landed.
 */
async function writeTagChange(
  ctx: DonorCtx,
  change: TagChange,
  changes: { donorId: string; before: string[] }[],
  whole = false,
): Promise<boolean[]> {
  if (!changes.length) return [];
  const db = orgDb(ctx);
  const claims = changes.map((c) => ({ donorId: c.donorId, auditId: generateId() }));
  const first = claims[0]?.auditId as string;
  const all = whole
    ? taggableGuard(
        ctx.org.id,
        claims.map((c) => c.donorId),
        change.tagIds,
      )
    : null;
  const res = await db.batch([
    ...changes.map((c, i) =>
      auditStatement(
        ctx,
        {
          id: claims[i]?.auditId,
          action: `tag.${change.mode}`,
          entityType: "donor",
          entityId: c.donorId,
          before: { tagIds: c.before },
          after: { mode: change.mode, tagIds: change.tagIds },
        },
        all ? (i === 0 ? all : auditGuard(first)) : taggableGuard(ctx.org.id, [c.donorId], change.tagIds),
      ),
    ),
    ...assignmentStatements(db, ctx.org.id, change.mode, claims, change.tagIds),
  ]);
  return changes.map((_, i) => !!res[i]?.meta.changes);
}

const tagNotFound = () => fail("NOT_FOUND", "Tag not found");

/**
 * One tag change on the given donors, all or nothing (the donor page): any donor that may not take
 * it, or an unknown tag, refuses the whole call, and so does a donor merged or a tag deleted between
 * the read and the write (409, nothing written).
 */
export async function assignTags(ctx: DonorCtx, input: TagChange & { donorIds: string[] }) {
  const donorIds = [...new Set(input.donorIds)];
  const change = { mode: input.mode, tagIds: [...new Set(input.tagIds)] };
  const plan = await planTagChange(ctx, donorIds, change);
  if (plan.refused.size) fail("NOT_FOUND", "Donor not found");
  if (!plan.tagsFound) tagNotFound();
  const landed = await writeTagChange(ctx, change, plan.changes, true);
  if (landed.length && !landed[0]) fail("CONFLICT", "The donors changed meanwhile; reload and try again");
  return { donors: donorIds.length };
}

/**
 * One batch of a bulk tag change (decision 024): up to BULK_MAX_IDS donors, each decided as
 * assignTags would decide it, answering per id: changed, or skipped with the reason ("Not found",
 * also for another organization's ids; "Merged into another donor"; already so; "The donor changed
 * meanwhile" for a lost race). An unknown tag refuses the whole call.
 */
export async function bulkAssignTags(
  ctx: DonorCtx,
  input: TagChange & { ids: string[] },
): Promise<BulkOutcome[]> {
  const change = { mode: input.mode, tagIds: [...new Set(input.tagIds)] };
  const plan = await planTagChange(ctx, input.ids, change);
  if (!plan.tagsFound) tagNotFound();
  const landed = await writeTagChange(ctx, change, plan.changes);
  const outcomes = new Map<string, BulkOutcome>();
  for (const [id, reason] of [...plan.refused, ...plan.unchanged])
    outcomes.set(id, { id, changed: false, reason });
  plan.changes.forEach((c, i) => {
    const id = c.donorId;
    outcomes.set(
      id,
      landed[i] ? { id, changed: true } : { id, changed: false, reason: "The donor changed meanwhile" },
    );
  });
  return input.ids.map((id) => outcomes.get(id) as BulkOutcome);
}
