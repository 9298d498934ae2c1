// Tag changes on many donors: all or nothing (assign) or per donor in batches (bulkAssign, decision 024).
import type { BulkOutcome } from "@core/bulk";
import { orgDb } from "../../db/databases";
import { auditStatement } from "../../lib/audit";
import { fail } from "../../lib/fail";
import { allGuards, auditGuard, previousWriteLanded } from "../../lib/guard";
import { generateId } from "../../lib/ids";
import type { OrgActor } from "../../trpc/init";
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

export const tagList = (ctx: OrgActor) => listTags(orgDb(ctx), ctx.org.id);

// The write and its audit row are conditional on `nameFree`, so two racing writes with one name cannot both
// land and the refusal reaches the name field, not a constraint's error text.
const nameTaken = () => fail("CONFLICT", "A tag with this name already exists", { field: "name" });

export async function createTag(ctx: OrgActor, input: { name: string; color: string }) {
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

export async function renameTag(ctx: OrgActor, input: { id: string; name: string; color: string }) {
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

export async function removeTag(ctx: OrgActor, id: string) {
  const db = orgDb(ctx);
  const tag = await selectTagWithDonors(db, ctx.org.id, id);
  if (!tag) fail("NOT_FOUND", "Tag not found");
  await db.batch([
    deleteTag(db, id),
    // Deleted from two tabs: only the delete that removed it leaves history.
    auditStatement(
      ctx,
      { action: "tag.delete", entityType: "tag", entityId: id, before: tag },
      previousWriteLanded,
    ),
  ]);
  return { id, donorsAffected: tag.donors };
}

/** Replace with no tags clears them. */
interface TagChange {
  mode: "add" | "remove" | "replace";
  tagIds: string[];
}

function noChange(change: TagChange): string {
  if (change.mode === "add") return "Already tagged";
  if (change.mode === "remove") return "Not tagged";
  return change.tagIds.length ? "Already has exactly these tags" : "Has no tags";
}

function tagsAfter(current: readonly string[], change: TagChange): Set<string> {
  if (change.mode === "replace") return new Set(change.tagIds);
  if (change.mode === "remove") return new Set(current.filter((t) => !change.tagIds.includes(t)));
  return new Set([...current, ...change.tagIds]);
}

/** Decided per donor as read; another organization's donor is "Not found". */
async function planTagChange(ctx: OrgActor, donorIds: string[], change: TagChange) {
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

// The one writer of tag changes: ONE batch of per-donor audit rows, each written only if the read still holds
// (decision 020), then the assignments. With `whole` the first row checks every donor: all land or none.
async function writeTagChange(
  ctx: OrgActor,
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

/** All or nothing: a donor merged or a tag deleted between the read and the write is a 409. */
export async function assignTags(ctx: OrgActor, input: TagChange & { donorIds: string[] }) {
  const donorIds = [...new Set(input.donorIds)];
  const change = { mode: input.mode, tagIds: [...new Set(input.tagIds)] };
  const plan = await planTagChange(ctx, donorIds, change);
  if (plan.refused.size) fail("NOT_FOUND", "Donor not found");
  if (!plan.tagsFound) tagNotFound();
  const landed = await writeTagChange(ctx, change, plan.changes, true);
  if (landed.length && !landed[0]) fail("CONFLICT", "The donors changed meanwhile; reload and try again");
  return { donors: donorIds.length };
}

/** Each donor decided as assignTags would (decision 024); an unknown tag refuses the whole call. */
export async function bulkAssignTags(
  ctx: OrgActor,
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
