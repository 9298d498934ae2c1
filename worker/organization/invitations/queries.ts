/** SQL of invitations (DESIGN §4, decision 017: the accept secret is stored only as its SHA-256). */

import type { Database } from "../../db/databases";
import type { invitation } from "../../db/domain";
import type { Row } from "../../db/rows";
import type { user } from "../../db/schema";

type I = Row<typeof invitation>;
type U = Row<typeof user>;

export type InvitationRow = I;

/** A member of the organization already has this (lower-cased) e-mail address. */
export const isMemberByEmail = async (db: Database, organizationId: string, email: string) =>
  !!(await db
    .prepare(
      "SELECT 1 FROM membership m JOIN user u ON u.id = m.user_id WHERE m.organization_id = ? AND lower(u.email) = ?",
    )
    .bind(organizationId, email)
    .first());

/** Revokes the open invitations of one address, so only the newest link works. */
export const revokeOpenOfEmailStatement = (
  db: Database,
  organizationId: string,
  email: string,
  now: number,
) =>
  db
    .prepare(
      "UPDATE invitation SET revoked_at = ?, updated_at = ? WHERE organization_id = ? AND email = ? AND accepted_at IS NULL AND revoked_at IS NULL",
    )
    .bind(now, now, organizationId, email);

export const insertInvitationStatement = (
  db: Database,
  inv: Pick<I, "id" | "organization_id" | "email" | "role" | "invited_by" | "expires_at" | "secret_hash">,
  now: number,
) =>
  db
    .prepare(
      "INSERT INTO invitation (id, organization_id, email, role, invited_by, expires_at, secret_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(
      inv.id,
      inv.organization_id,
      inv.email,
      inv.role,
      inv.invited_by,
      inv.expires_at,
      inv.secret_hash,
      now,
      now,
    );

/** Open invitations of an organization (not accepted, not revoked; expired ones included), newest first. */
export async function openInvitationsOf(db: Database, organizationId: string) {
  const { results } = await db
    .prepare(
      `SELECT i.id, i.email, i.role, i.expires_at AS expiresAt, i.created_at AS createdAt, u.name AS invitedBy
         FROM invitation i LEFT JOIN user u ON u.id = i.invited_by
        WHERE i.organization_id = ? AND i.revoked_at IS NULL AND i.accepted_at IS NULL
        ORDER BY i.created_at DESC LIMIT 100`,
    )
    .bind(organizationId)
    .all<{
      id: I["id"];
      email: I["email"];
      role: I["role"];
      expiresAt: I["expires_at"];
      createdAt: I["created_at"];
      invitedBy: U["name"] | null;
    }>();
  return results;
}

/** An open invitation by its public id; with `organizationId`, only that organization's. */
export const openInvitation = (db: Database, id: string, organizationId: string | null) =>
  db
    .prepare(
      "SELECT id, organization_id, email, role, expires_at FROM invitation WHERE id = ?1 AND (?2 IS NULL OR organization_id = ?2) AND accepted_at IS NULL AND revoked_at IS NULL",
    )
    .bind(id, organizationId)
    .first<Pick<I, "id" | "organization_id" | "email" | "role" | "expires_at">>();

/** Invitations by public id in any state, only `organizationId`'s if set; the ids as one json_each. */
export async function invitationsByIds(db: Database, ids: readonly string[], organizationId: string | null) {
  const { results } = await db
    .prepare(
      "SELECT id, organization_id, email, role, accepted_at, revoked_at FROM invitation WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR organization_id = ?2)",
    )
    .bind(JSON.stringify(ids), organizationId)
    .all<Pick<I, "id" | "organization_id" | "email" | "role" | "accepted_at" | "revoked_at">>();
  return results;
}

/** A new secret and 7 more days: the link mailed before stops working (decision 017). */
export const renewStatement = (
  db: Database,
  id: string,
  expiresAt: number,
  secretHash: string,
  now: number,
) =>
  db
    .prepare("UPDATE invitation SET expires_at = ?, secret_hash = ?, updated_at = ? WHERE id = ?")
    .bind(expiresAt, secretHash, now, id);

/** Revokes an invitation if it is still open (an accept that landed first wins). */
export const revokeStatement = (db: Database, id: string, now: number) =>
  db
    .prepare(
      "UPDATE invitation SET revoked_at = ?, updated_at = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL",
    )
    .bind(now, now, id);

/** The invitation a link's secret names, with the names shown and the role `userId` holds there now. */
export const invitationBySecretHash = (db: Database, hash: string, userId: string | null) =>
  db
    .prepare(
      `SELECT i.*, o.name AS organization_name, o.time_zone AS organization_time_zone, u.name AS invited_by_name,
              (SELECT m.role FROM membership m WHERE m.organization_id = i.organization_id AND m.user_id = ?2) AS member_role
         FROM invitation i JOIN organization o ON o.id = i.organization_id LEFT JOIN user u ON u.id = i.invited_by
        WHERE i.secret_hash = ?1`,
    )
    .bind(hash, userId)
    .first<
      I & {
        secret_hash: string;
        organization_name: string;
        organization_time_zone: string;
        invited_by_name: string | null;
        member_role: string | null;
      }
    >();

/** The secret still this invitation's and it still open: a resend, revoke or accept landing first wins. */
const STILL_OPEN = "secret_hash = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?";

/** A decline closes the invitation as a revoke does, and says it was the invitee's. */
export const declineStatement = (db: Database, hash: string, now: number) =>
  db
    .prepare(`UPDATE invitation SET revoked_at = ?, declined_at = ?, updated_at = ? WHERE ${STILL_OPEN}`)
    .bind(now, now, now, hash, now);

/** Accepts unless `userId` is a member already: an old invitation never changes the role held now. */
export const acceptStatement = (db: Database, hash: string, userId: string, now: number) =>
  db
    .prepare(
      `UPDATE invitation SET accepted_at = ?, updated_at = ? WHERE ${STILL_OPEN}
          AND NOT EXISTS (SELECT 1 FROM membership m WHERE m.organization_id = invitation.organization_id AND m.user_id = ?)`,
    )
    .bind(now, now, hash, now, userId);

/** The accept's membership, only if the accept changed a row; an existing membership stays as it is. */
export const joinStatement = (
  db: Database,
  m: { id: string; organizationId: string; userId: string; role: string },
  now: number,
) =>
  db
    .prepare(
      `INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) SELECT ?, ?, ?, ?, ?, ?
          WHERE changes() = 1 ON CONFLICT (organization_id, user_id) DO NOTHING`,
    )
    .bind(m.id, m.organizationId, m.userId, m.role, now, now);

/** The portal opens on the organization just joined: only if this batch's membership went in. */
export const openOnJoinedStatement = (db: Database, userId: string, membershipId: string) =>
  db
    .prepare(
      `UPDATE user SET active_organization_id = (SELECT organization_id FROM membership WHERE id = ?1)
        WHERE id = ?2 AND EXISTS (SELECT 1 FROM membership WHERE id = ?1 AND user_id = ?2)`,
    )
    .bind(membershipId, userId);
