/** Donor tag SQL (docs/architecture.md: queries). */
import type { Guard } from "../../lib/guard";

/**
 * No other tag of the organization has this name, whatever its case: the rule of the unique index
 * donor_tag_org_name_unique (worker/db/domain.ts), asked inside the write so that of two writes
 * racing with one name only the first lands (D1 runs one statement at a time).
 */
export const nameFree = (orgId: string, name: string, exceptId: string): Guard => ({
  sql: (p) =>
    `NOT EXISTS (SELECT 1 FROM donor_tag o WHERE o.organization_id = ?${p} AND lower(o.name) = lower(?${p + 1}) AND o.id != ?${p + 2})`,
  args: [orgId, name, exceptId],
});

/** This tag exists (in its organization). */
export const tagExists = (orgId: string, id: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM donor_tag WHERE id = ?${p} AND organization_id = ?${p + 1})`,
  args: [id, orgId],
});

export async function listTags(db: D1Database, orgId: string) {
  const { results } = await db
    .prepare(
      "SELECT g.id, g.name, g.color, (SELECT count(*) FROM donor_tag_assignment a WHERE a.tag_id = g.id) AS donors FROM donor_tag g WHERE g.organization_id = ? ORDER BY lower(g.name)",
    )
    .bind(orgId)
    .all<{ id: string; name: string; color: string; donors: number }>();
  return results;
}

export function selectTag(db: D1Database, orgId: string, id: string) {
  return db
    .prepare("SELECT id, name, color FROM donor_tag WHERE id = ? AND organization_id = ?")
    .bind(id, orgId)
    .first<{ id: string; name: string; color: string }>();
}

/** The tag with the number of donors that carry it. */
export function selectTagWithDonors(db: D1Database, orgId: string, id: string) {
  return db
    .prepare(
      "SELECT id, name, (SELECT count(*) FROM donor_tag_assignment WHERE tag_id = donor_tag.id) AS donors FROM donor_tag WHERE id = ? AND organization_id = ?",
    )
    .bind(id, orgId)
    .first<{ id: string; name: string; donors: number }>();
}

/** Inserts the tag only if `free` (its name is not taken): no changes means the name was taken. */
export function insertTag(
  db: D1Database,
  t: { id: string; orgId: string; name: string; color: string; now: number },
  free: Guard,
) {
  return db
    .prepare(
      `INSERT INTO donor_tag (id, organization_id, name, color, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?5 WHERE ${free.sql(6)}`,
    )
    .bind(t.id, t.orgId, t.name, t.color, t.now, ...free.args);
}

/** Updates the tag only if `free` (its new name is not another tag's). */
export function updateTag(
  db: D1Database,
  t: { id: string; orgId: string; name: string; color: string },
  free: Guard,
) {
  return db
    .prepare(
      `UPDATE donor_tag SET name = ?1, color = ?2, updated_at = ?3 WHERE id = ?4 AND organization_id = ?5 AND ${free.sql(6)}`,
    )
    .bind(t.name, t.color, Date.now(), t.id, t.orgId, ...free.args);
}

export function deleteTag(db: D1Database, id: string) {
  return db.prepare("DELETE FROM donor_tag WHERE id = ?").bind(id);
}

/** How many of `donorIds` (unmerged) and of `tagIds` the organization has, in one round trip. */
export async function countOwned(db: D1Database, orgId: string, donorIds: string[], tagIds: string[]) {
  const [donors, tags] = await db.batch([
    db
      .prepare(
        `SELECT count(*) AS n FROM donor WHERE organization_id = ? AND merged_into_id IS NULL AND id IN (SELECT value FROM json_each(?))`,
      )
      .bind(orgId, JSON.stringify(donorIds)),
    db
      .prepare(
        `SELECT count(*) AS n FROM donor_tag WHERE organization_id = ? AND id IN (SELECT value FROM json_each(?))`,
      )
      .bind(orgId, JSON.stringify(tagIds)),
  ]);
  return {
    donors: ((donors?.results[0] ?? { n: 0 }) as { n: number }).n,
    tags: ((tags?.results[0] ?? { n: 0 }) as { n: number }).n,
  };
}

/** The statements of one bulk assignment: replace clears first; remove deletes; add and replace insert. */
export function assignmentStatements(
  db: D1Database,
  orgId: string,
  mode: "add" | "remove" | "replace",
  donorIds: string[],
  tagIds: string[],
): D1PreparedStatement[] {
  const stmts: D1PreparedStatement[] = [];
  const dj = JSON.stringify(donorIds);
  const tj = JSON.stringify(tagIds);
  if (mode === "replace")
    stmts.push(
      db
        .prepare("DELETE FROM donor_tag_assignment WHERE donor_id IN (SELECT value FROM json_each(?))")
        .bind(dj),
    );
  if (mode === "remove") {
    stmts.push(
      db
        .prepare(
          "DELETE FROM donor_tag_assignment WHERE donor_id IN (SELECT value FROM json_each(?)) AND tag_id IN (SELECT value FROM json_each(?))",
        )
        .bind(dj, tj),
    );
  } else {
    stmts.push(
      db
        .prepare(
          "INSERT OR IGNORE INTO donor_tag_assignment (donor_id, tag_id, organization_id) SELECT d.value, t.value, ? FROM json_each(?) d, json_each(?) t",
        )
        .bind(orgId, dj, tj),
    );
  }
  return stmts;
}
