/** SQL of an organization's memberships (DESIGN §4; decisions 017, 046: always an owner). */

import type { Database } from "../../db/databases";
import type { Row } from "../../db/rows";
import type { membership, organization, user } from "../../db/schema";
import type { Guard } from "../../lib/guard";

type M = Row<typeof membership>;
type U = Row<typeof user>;
type O = Row<typeof organization>;

/** An organization's members with their platform role (the members card). */
export async function membersOf(db: Database, organizationId: string) {
  const { results } = await db
    .prepare(
      "SELECT m.id, m.role, m.created_at AS createdAt, u.id AS userId, u.name, u.email, u.role AS platformRole FROM membership m JOIN user u ON u.id = m.user_id WHERE m.organization_id = ? ORDER BY u.name",
    )
    .bind(organizationId)
    .all<{
      id: M["id"];
      role: M["role"];
      createdAt: M["created_at"];
      userId: U["id"];
      name: U["name"];
      email: U["email"];
      platformRole: U["role"];
    }>();
  return results;
}

/** One user's memberships across organizations (the admin's user screen). */
export async function membershipsOfUser(db: Database, userId: string) {
  const { results } = await db
    .prepare(
      "SELECT m.id, m.role, o.id AS organizationId, o.name AS organizationName FROM membership m JOIN organization o ON o.id = m.organization_id WHERE m.user_id = ? ORDER BY o.name",
    )
    .bind(userId)
    .all<{ id: M["id"]; role: M["role"]; organizationId: O["id"]; organizationName: O["name"] }>();
  return results;
}

/** Whether the user and the organization exist, in one round trip. */
export async function userAndOrganizationExist(db: Database, userId: string, organizationId: string) {
  const [u, o] = await db.batch([
    db.prepare("SELECT id FROM user WHERE id = ?").bind(userId),
    // A deleted organization (decision 046) takes no new members.
    db.prepare("SELECT id FROM organization WHERE id = ? AND status != 'archived'").bind(organizationId),
  ]);
  return { user: !!u?.results.length, organization: !!o?.results.length };
}

export const membershipOf = (db: Database, organizationId: string, userId: string) =>
  db
    .prepare("SELECT role FROM membership WHERE organization_id = ? AND user_id = ?")
    .bind(organizationId, userId)
    .first<Pick<M, "role">>();

export const membershipById = (db: Database, id: string) =>
  db.prepare("SELECT * FROM membership WHERE id = ?").bind(id).first<M>();

/** A membership of this organization only: another tenant's id finds nothing. */
export const membershipIn = (db: Database, organizationId: string, id: string) =>
  db
    .prepare("SELECT id, user_id, role FROM membership WHERE id = ? AND organization_id = ?")
    .bind(id, organizationId)
    .first<Pick<M, "id" | "user_id" | "role">>();

/** Another owner than `userId` exists in the organization. */
export const otherOwnerExists = async (db: Database, organizationId: string, userId: string) =>
  !!(await db
    .prepare("SELECT 1 FROM membership WHERE organization_id = ? AND role = 'owner' AND user_id != ? LIMIT 1")
    .bind(organizationId, userId)
    .first());

/** SQL true unless `m` is the last owner; every removal or demotion carries it, so two cannot both land. */
export const keepsAnOwnerSql = (m: string) =>
  `(${m}.role != 'owner' OR EXISTS (SELECT 1 FROM membership o WHERE o.organization_id = ${m}.organization_id AND o.role = 'owner' AND o.id != ${m}.id))`;

/** Adds a member or changes a role; a last owner stays owner (in the write: a racing demotion loses). */
export const upsertMembershipStatement = (
  db: Database,
  m: { id: string; organizationId: string; userId: string; role: string },
  now: number,
) =>
  db
    .prepare(
      `INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at
         WHERE excluded.role = 'owner' OR ${keepsAnOwnerSql("membership")}`,
    )
    .bind(m.id, m.organizationId, m.userId, m.role, now, now);

/** Deletes the membership if its role is still `role` and it is not the last owner (in the write). */
export const deleteMembershipKeepingAnOwnerStatement = (db: Database, id: string, role: string) =>
  db
    .prepare(`DELETE FROM membership WHERE id = ? AND role = ? AND ${keepsAnOwnerSql("membership")}`)
    .bind(id, role);

/** Changes a role if still `from`; demoting an owner needs another owner, in the same write. */
export const setRoleStatement = (db: Database, id: string, from: string, to: string, now: number) =>
  db
    .prepare(
      `UPDATE membership SET role = ?, updated_at = ? WHERE id = ? AND role = ? AND (? = 'owner' OR ${keepsAnOwnerSql("membership")})`,
    )
    .bind(to, now, id, from, to);

/** The removed member's portal no longer opens on this organization. */
export const forgetActiveOrganizationStatement = (
  db: Database,
  userId: string,
  organizationId: string,
  guard: Guard,
) =>
  db
    .prepare(
      `UPDATE user SET active_organization_id = NULL WHERE id = ?1 AND active_organization_id = ?2 AND ${guard.sql(3)}`,
    )
    .bind(userId, organizationId, ...guard.args);

/** The caller's own membership, unless they are its organization's last owner (in the write). */
export const deleteOwnMembershipStatement = (db: Database, organizationId: string, userId: string) =>
  db
    .prepare(
      `DELETE FROM membership WHERE organization_id = ? AND user_id = ? AND ${keepsAnOwnerSql("membership")}`,
    )
    .bind(organizationId, userId);

/** An open offer of ownership made by or to someone who is no longer a member ends with them. */
export const endOffersOfStatement = (
  db: Database,
  organizationId: string,
  userId: string,
  now: number,
  guard: Guard,
) =>
  db
    .prepare(
      `UPDATE ownership_offer SET status = 'withdrawn', decided_at = ?3, updated_at = ?3
        WHERE organization_id = ?1 AND status = 'open' AND (to_user_id = ?2 OR from_user_id = ?2) AND ${guard.sql(4)}`,
    )
    .bind(organizationId, userId, now, ...guard.args);
