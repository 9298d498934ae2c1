import type { Database } from "../../db/databases";
import type { Guard } from "../../lib/guard";

// donor_tag_org_name_unique's rule, asked inside the write: of two writes racing with one name only the
// first lands (D1 runs one statement at a time).
export const nameFree = (orgId: string, name: string, exceptId: string): Guard => ({
  sql: (p) =>
    `NOT EXISTS (SELECT 1 FROM donor_tag o WHERE o.organization_id = ?${p} AND lower(o.name) = lower(?${p + 1}) AND o.id != ?${p + 2})`,
  args: [orgId, name, exceptId],
});

export const tagExists = (orgId: string, id: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM donor_tag WHERE id = ?${p} AND organization_id = ?${p + 1})`,
  args: [id, orgId],
});

export async function listTags(db: Database, orgId: string) {
  const { results } = await db
    .prepare(
      "SELECT g.id, g.name, g.color, (SELECT count(*) FROM donor_tag_assignment a WHERE a.tag_id = g.id) AS donors FROM donor_tag g WHERE g.organization_id = ? ORDER BY lower(g.name)",
    )
    .bind(orgId)
    .all<{ id: string; name: string; color: string; donors: number }>();
  return results;
}

export function selectTag(db: Database, orgId: string, id: string) {
  return db
    .prepare("SELECT id, name, color FROM donor_tag WHERE id = ? AND organization_id = ?")
    .bind(id, orgId)
    .first<{ id: string; name: string; color: string }>();
}

export function selectTagWithDonors(db: Database, orgId: string, id: string) {
  return db
    .prepare(
      "SELECT id, name, (SELECT count(*) FROM donor_tag_assignment WHERE tag_id = donor_tag.id) AS donors FROM donor_tag WHERE id = ? AND organization_id = ?",
    )
    .bind(id, orgId)
    .first<{ id: string; name: string; donors: number }>();
}

/** No changes means the name was taken. */
export function insertTag(
  db: Database,
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

export function updateTag(
  db: Database,
  t: { id: string; orgId: string; name: string; color: string },
  free: Guard,
) {
  return db
    .prepare(
      `UPDATE donor_tag SET name = ?1, color = ?2, updated_at = ?3 WHERE id = ?4 AND organization_id = ?5 AND ${free.sql(6)}`,
    )
    .bind(t.name, t.color, Date.now(), t.id, t.orgId, ...free.args);
}

export function deleteTag(db: Database, id: string) {
  return db.prepare("DELETE FROM donor_tag WHERE id = ?").bind(id);
}

// Read with the donor and checked again inside the write. A merged donor is a pointer (its tags went to
// the survivor); an anonymized donor keeps its tags and may take more.
const TAGGABLE = (dn: string) => `${dn}.merged_into_id IS NULL`;

/** `tag_ids`: sorted, as a JSON array. */
interface TagTarget {
  id: string;
  taggable: number;
  tag_ids: string;
}

export async function readTagTargets(db: Database, orgId: string, donorIds: string[], tagIds: string[]) {
  const [donors, tags] = await db.batch([
    db
      .prepare(
        `SELECT dn.id, (${TAGGABLE("dn")}) AS taggable,
           (SELECT json_group_array(tag_id) FROM (SELECT tag_id FROM donor_tag_assignment WHERE donor_id = dn.id ORDER BY tag_id)) AS tag_ids
         FROM donor dn WHERE dn.organization_id = ? AND dn.id IN (SELECT value FROM json_each(?))`,
      )
      .bind(orgId, JSON.stringify(donorIds)),
    db
      .prepare(
        "SELECT count(*) AS n FROM donor_tag WHERE organization_id = ? AND id IN (SELECT value FROM json_each(?))",
      )
      .bind(orgId, JSON.stringify(tagIds)),
  ]);
  return {
    donors: (donors?.results ?? []) as TagTarget[],
    tagsFound: ((tags?.results[0] ?? { n: 0 }) as { n: number }).n,
  };
}

/** The read again inside the write (decision 020), carried by the audit rows. */
export const taggableGuard = (orgId: string, donorIds: string[], tagIds: string[]): Guard => ({
  sql: (p) =>
    `(SELECT count(*) FROM donor dn WHERE dn.id IN (SELECT value FROM json_each(?${p})) AND dn.organization_id = ?${p + 1} AND ${TAGGABLE("dn")}) = ?${p + 2}
     AND (SELECT count(*) FROM donor_tag WHERE organization_id = ?${p + 1} AND id IN (SELECT value FROM json_each(?${p + 3}))) = ?${p + 4}`,
  args: [JSON.stringify(donorIds), orgId, donorIds.length, JSON.stringify(tagIds), tagIds.length],
});

/** A donor is changed only if its audit row (`claims`) was written earlier in the batch. */
export function assignmentStatements(
  db: Database,
  orgId: string,
  mode: "add" | "remove" | "replace",
  claims: { donorId: string; auditId: string }[],
  tagIds: string[],
): D1PreparedStatement[] {
  const landed = `WITH landed(donor_id) AS (
      SELECT json_extract(c.value, '$[0]') FROM json_each(?1) c
      WHERE EXISTS (SELECT 1 FROM audit_event a WHERE a.id = json_extract(c.value, '$[1]')))`;
  const cj = JSON.stringify(claims.map((c) => [c.donorId, c.auditId]));
  const tj = JSON.stringify(tagIds);
  const stmts: D1PreparedStatement[] = [];
  if (mode === "replace")
    stmts.push(
      db
        .prepare(`${landed} DELETE FROM donor_tag_assignment WHERE donor_id IN (SELECT donor_id FROM landed)`)
        .bind(cj),
    );
  if (mode === "remove")
    stmts.push(
      db
        .prepare(
          `${landed} DELETE FROM donor_tag_assignment WHERE donor_id IN (SELECT donor_id FROM landed) AND tag_id IN (SELECT value FROM json_each(?2))`,
        )
        .bind(cj, tj),
    );
  else
    stmts.push(
      db
        .prepare(
          `${landed} INSERT OR IGNORE INTO donor_tag_assignment (donor_id, tag_id, organization_id)
           SELECT l.donor_id, t.value, ?3 FROM landed l, json_each(?2) t`,
        )
        .bind(cj, tj, orgId),
    );
  return stmts;
}
