/** Donor tags (docs/architecture.md: service): names unique per organization, bulk assignment. */
import { generateId } from "../../auth/crypto";
import { auditStatement } from "../../lib/audit";
import { allGuards } from "../../lib/guard";
import { fail } from "../../trpc/init";
import type { DonorCtx } from "../service";
import {
  assignmentStatements,
  countOwned,
  deleteTag,
  insertTag,
  listTags,
  nameFree,
  selectTag,
  selectTagWithDonors,
  tagExists,
  updateTag,
} from "./queries";

export const tagList = (ctx: DonorCtx) => listTags(ctx.env.DB, ctx.org.id);

/**
 * A tag's name is unique in its organization whatever its case (donor_tag_org_name_unique). The
 * write itself is conditional on it (`nameFree`), and so is its audit row, so two writes racing
 * with one name cannot both land and nobody reads a constraint's error text; the refusal reaches
 * the form next to the name field.
 */
const nameTaken = () => fail("CONFLICT", "A tag with this name already exists", { field: "name" });

export async function createTag(ctx: DonorCtx, input: { name: string; color: string }) {
  const db = ctx.env.DB;
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
  const db = ctx.env.DB;
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
  const db = ctx.env.DB;
  const tag = await selectTagWithDonors(db, ctx.org.id, id);
  if (!tag) fail("NOT_FOUND", "Tag not found");
  await db.batch([
    deleteTag(db, id),
    auditStatement(ctx, { action: "tag.delete", entityType: "tag", entityId: id, before: tag }),
  ]);
  return { id, donorsAffected: tag.donors };
}

/** One call for row and bulk actions: add, remove or replace tags on many donors. */
export async function assignTags(
  ctx: DonorCtx,
  input: { donorIds: string[]; tagIds: string[]; mode: "add" | "remove" | "replace" },
) {
  const db = ctx.env.DB;
  const donorIds = [...new Set(input.donorIds)];
  const tagIds = [...new Set(input.tagIds)];
  const owned = await countOwned(db, ctx.org.id, donorIds, tagIds);
  if (owned.donors !== donorIds.length) fail("NOT_FOUND", "Donor not found");
  if (owned.tags !== tagIds.length) fail("NOT_FOUND", "Tag not found");
  await db.batch([
    ...assignmentStatements(db, ctx.org.id, input.mode, donorIds, tagIds),
    auditStatement(ctx, {
      action: `tag.${input.mode}`,
      entityType: "donor",
      entityId: donorIds.join(",").slice(0, 500),
      after: input,
    }),
  ]);
  return { donors: donorIds.length };
}
