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

/**
 * Invitations by public id, in any state (a revoke decides from accepted_at and revoked_at); with
 * `organizationId`, only that organization's. One parameter for the ids (json_each), however many.
 */
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

/** The invitation a mailed link's secret names (so its secret_hash is set), with its organization's name. */
export const invitationBySecretHash = (db: Database, hash: string) =>
  db
    .prepare(
      "SELECT i.*, o.name AS organization_name FROM invitation i JOIN organization o ON o.id = i.organization_id WHERE i.secret_hash = ?",
    )
    .bind(hash)
    .first<I & { secret_hash: string; organization_name: string }>();

/**
 * Conditional on the secret still being this invitation's and the invitation still open: a resend,
 * revoke or accept that lands between the invitee's read and this write wins.
 */
const STILL_OPEN = "secret_hash = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?";

export const declineStatement = (db: Database, hash: string, now: number) =>
  db
    .prepare(`UPDATE invitation SET revoked_at = ?, updated_at = ? WHERE ${STILL_OPEN}`)
    .bind(now, now, hash, now);

export const acceptStatement = (db: Database, hash: string, now: number) =>
  db
    .prepare(`UPDATE invitation SET accepted_at = ?, updated_at = ? WHERE ${STILL_OPEN}`)
    .bind(now, now, hash, now);

/** The membership an accept gives; only when the statement before it (the accept) changed a row. */
export const joinStatement = (
  db: Database,
  m: { id: string; organizationId: string; userId: string; role: string },
  now: number,
) =>
  db
    .prepare(
      `INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) SELECT ?, ?, ?, ?, ?, ?
          WHERE changes() = 1 ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at`,
    )
    .bind(m.id, m.organizationId, m.userId, m.role, now, now);
