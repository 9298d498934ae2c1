import type { Database } from "../../db/databases";

interface NoteListRow {
  id: string;
  body: string;
  visibility: string;
  pinned: number;
  createdAt: number;
  updatedAt: number;
  authorId: string;
}

/** Authors' names come from worker/lib/user-names.ts. */
export async function listNotes(db: Database, orgId: string, donorId: string) {
  const { results } = await db
    .prepare(
      "SELECT n.id, n.body, n.visibility, n.pinned, n.created_at AS createdAt, n.updated_at AS updatedAt, n.author_id AS authorId FROM donor_note n WHERE n.donor_id = ? AND n.organization_id = ? ORDER BY n.pinned DESC, n.created_at DESC, n.id DESC",
    )
    .bind(donorId, orgId)
    .all();
  return results as unknown as NoteListRow[];
}

export function selectNote(db: Database, orgId: string, id: string) {
  return db
    .prepare("SELECT id, donor_id, author_id FROM donor_note WHERE id = ? AND organization_id = ?")
    .bind(id, orgId)
    .first<{ id: string; donor_id: string; author_id: string }>();
}

export function insertNote(
  db: Database,
  n: {
    id: string;
    orgId: string;
    donorId: string;
    authorId: string;
    body: string;
    visibility: string;
    pinned: boolean;
  },
) {
  return db
    .prepare(
      "INSERT INTO donor_note (id, organization_id, donor_id, author_id, body, visibility, pinned, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(
      n.id,
      n.orgId,
      n.donorId,
      n.authorId,
      n.body,
      n.visibility,
      n.pinned ? 1 : 0,
      Date.now(),
      Date.now(),
    );
}

export function updateNote(
  db: Database,
  id: string,
  n: { body?: string; visibility?: string; pinned?: boolean },
) {
  return db
    .prepare(
      "UPDATE donor_note SET body = COALESCE(?, body), visibility = COALESCE(?, visibility), pinned = COALESCE(?, pinned), updated_at = ? WHERE id = ?",
    )
    .bind(
      n.body ?? null,
      n.visibility ?? null,
      n.pinned === undefined ? null : n.pinned ? 1 : 0,
      Date.now(),
      id,
    );
}

export function deleteNote(db: Database, id: string) {
  return db.prepare("DELETE FROM donor_note WHERE id = ?").bind(id);
}
