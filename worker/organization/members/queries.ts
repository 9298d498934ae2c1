/** SQL of an organization's memberships (DESIGN §4 members; decision 017). */

import type { Database } from "../../db/databases";
import type { Row } from "../../db/rows";
import type { membership, organization, user } from "../../db/schema";

type M = Row<typeof membership>;
type U = Row<typeof user>;
type O = Row<typeof organization>;

export type MembershipRow = M;

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
    db.prepare("SELECT id FROM organization WHERE id = ?").bind(organizationId),
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

/** Adds a member, or changes the role of an existing one. */
export const upsertMembershipStatement = (
  db: Database,
  m: { id: string; organizationId: string; userId: string; role: string },
  now: number,
) =>
  db
    .prepare(
      "INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at",
    )
    .bind(m.id, m.organizationId, m.userId, m.role, now, now);

/** The platform admin's removal: by id, across organizations. */
export const deleteMembershipStatement = (db: Database, id: string) =>
  db.prepare("DELETE FROM membership WHERE id = ?").bind(id);

/**
 * Deletes the membership unless it is the organization's last owner, checked in the write itself so
 * a concurrent removal of the other owner loses cleanly.
 */
export const deleteMembershipKeepingAnOwnerStatement = (db: Database, id: string) =>
  db
    .prepare(
      `DELETE FROM membership WHERE id = ? AND (role != 'owner' OR EXISTS (SELECT 1 FROM membership o WHERE o.organization_id = membership.organization_id AND o.role = 'owner' AND o.id != membership.id))`,
    )
    .bind(id);

/**
 * Changes a role if it is still `from`; demoting an owner also needs another owner in the same
 * write, so a concurrent demotion of the other owner loses cleanly.
 */
export const setRoleStatement = (db: Database, id: string, from: string, to: string, now: number) =>
  db
    .prepare(
      `UPDATE membership SET role = ?, updated_at = ? WHERE id = ? AND role = ?
         AND (role != 'owner' OR ? = 'owner' OR EXISTS (SELECT 1 FROM membership o WHERE o.organization_id = membership.organization_id AND o.role = 'owner' AND o.id != membership.id))`,
    )
    .bind(to, now, id, from, to);

/** The removed member's portal no longer opens on this organization. */
export const forgetActiveOrganizationStatement = (db: Database, userId: string, organizationId: string) =>
  db
    .prepare("UPDATE user SET active_organization_id = NULL WHERE id = ? AND active_organization_id = ?")
    .bind(userId, organizationId);

export const deleteOwnMembershipStatement = (db: Database, organizationId: string, userId: string) =>
  db.prepare("DELETE FROM membership WHERE organization_id = ? AND user_id = ?").bind(organizationId, userId);

export const clearActiveOrganizationStatement = (db: Database, userId: string) =>
  db.prepare("UPDATE user SET active_organization_id = NULL WHERE id = ?").bind(userId);
