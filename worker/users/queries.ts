/** SQL of the platform admin's views of one user (the auth contract has no endpoint for them). */

import type { Database } from "../db/databases";
import type { auditEvent } from "../db/domain";
import type { Row } from "../db/rows";
import type { account } from "../db/schema";

type A = Row<typeof account>;
type E = Row<typeof auditEvent>;

/** The user's sign-in methods (password, providers), oldest first. */
export async function accountsOf(db: Database, userId: string) {
  const { results } = await db
    .prepare(
      "SELECT id, provider_id AS providerId, account_id AS accountId, created_at AS createdAt FROM account WHERE user_id = ? ORDER BY created_at",
    )
    .bind(userId)
    .all<{
      id: A["id"];
      providerId: A["provider_id"];
      accountId: A["account_id"];
      createdAt: A["created_at"];
    }>();
  return results;
}

/** What was done to the user, by them, or while impersonating as them (newest first, at most 100). */
export async function historyOf(db: Database, userId: string) {
  const { results } = await db
    .prepare(
      `SELECT a.id, a.action, a.reason, a.at, a.before, a.after, a.ip, a.entity_type AS entityType,
              a.entity_id AS entityId, a.organization_id AS organizationId, a.actor_id AS actorId,
              a.impersonator_id AS impersonatorId
         FROM audit_event a
        WHERE (a.entity_type = 'user' AND a.entity_id = ?1) OR a.actor_id = ?1 OR a.impersonator_id = ?1
        ORDER BY a.at DESC LIMIT 100`,
    )
    .bind(userId)
    .all<{
      id: E["id"];
      action: E["action"];
      reason: E["reason"];
      at: E["at"];
      before: E["before"];
      after: E["after"];
      ip: E["ip"];
      entityType: E["entity_type"];
      entityId: E["entity_id"];
      organizationId: E["organization_id"];
      actorId: E["actor_id"];
      impersonatorId: E["impersonator_id"];
    }>();
  return results;
}
