import { orgDb } from "../../db/databases";
import { auditStatement } from "../../lib/audit";
import { fail } from "../../lib/fail";
import { previousWriteLanded } from "../../lib/guard";
import { generateId } from "../../lib/ids";
import { userNames } from "../../lib/user-names";
import type { OrgActor } from "../../trpc/init";
import { loadDonor } from "../service";
import { deleteNote, insertNote, listNotes, selectNote, updateNote } from "./queries";

export async function donorNotes(ctx: OrgActor, donorId: string) {
  const d = await loadDonor(orgDb(ctx), ctx.org.id, donorId);
  const notes = await listNotes(orgDb(ctx), ctx.org.id, d.id);
  const names = await userNames(
    ctx.env,
    notes.map((n) => n.authorId),
  );
  return notes.map((n) => ({ ...n, author: names.get(n.authorId) ?? null }));
}

export async function createNote(
  ctx: OrgActor,
  input: { donorId: string; body: string; visibility: "internal" | "shared"; pinned: boolean },
) {
  const db = orgDb(ctx);
  const d = await loadDonor(db, ctx.org.id, input.donorId);
  if (d.anonymized_at) fail("UNPROCESSABLE_CONTENT", "An anonymized donor cannot get new notes");
  const id = generateId();
  await db.batch([
    insertNote(db, {
      id,
      orgId: ctx.org.id,
      donorId: d.id,
      authorId: ctx.user.id,
      body: input.body,
      visibility: input.visibility,
      pinned: input.pinned,
    }),
    auditStatement(ctx, {
      action: "note.create",
      entityType: "donor",
      entityId: d.id,
      after: { id, visibility: input.visibility },
    }),
  ]);
  return { id };
}

/** `verb` names the refused act. */
async function ownNote(ctx: OrgActor, id: string, verb: "edit" | "delete") {
  const note = await selectNote(orgDb(ctx), ctx.org.id, id);
  if (!note) fail("NOT_FOUND", "Note not found");
  const orgAdmin = ctx.org.isPlatformAdmin || ctx.org.role === "owner" || ctx.org.role === "admin";
  if (note.author_id !== ctx.user.id && !orgAdmin)
    fail("FORBIDDEN", `Only the author or an organization admin can ${verb} this note`);
  return note;
}

export async function editNote(
  ctx: OrgActor,
  input: { id: string; body?: string; visibility?: "internal" | "shared"; pinned?: boolean },
) {
  const note = await ownNote(ctx, input.id, "edit");
  await orgDb(ctx).batch([
    updateNote(orgDb(ctx), note.id, input),
    // A note deleted meanwhile changes nothing and leaves no row.
    auditStatement(
      ctx,
      { action: "note.update", entityType: "donor", entityId: note.donor_id, after: { id: note.id } },
      previousWriteLanded,
    ),
  ]);
  return { id: note.id };
}

export async function removeNote(ctx: OrgActor, id: string) {
  const note = await ownNote(ctx, id, "delete");
  await orgDb(ctx).batch([
    deleteNote(orgDb(ctx), note.id),
    // Deleted from two tabs: only the delete that removed it leaves history.
    auditStatement(
      ctx,
      { action: "note.delete", entityType: "donor", entityId: note.donor_id, before: { id: note.id } },
      previousWriteLanded,
    ),
  ]);
  return { id: note.id };
}
