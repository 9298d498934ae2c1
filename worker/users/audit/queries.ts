/** SQL of a record's audit trail (DESIGN §4): the History panel, one organization's rows only. */

import type { Database } from "../../db/databases";
import type { auditEvent } from "../../db/domain";
import type { Row } from "../../db/rows";

type E = Row<typeof auditEvent>;

/** The tables whose rows carry an organization_id and have a History panel. */
export type OwnedTable = "campaign" | "campaign_item" | "donor" | "donation" | "invitation";

/** The record is this organization's (`table` is one of the fixed names above, never input). */
export const recordIsOrganizations = async (
  db: Database,
  table: OwnedTable,
  organizationId: string,
  id: string,
) =>
  !!(await db
    .prepare(`SELECT 1 FROM ${table} WHERE organization_id = ? AND id = ?`)
    .bind(organizationId, id)
    .first());

/** The user is a member of the organization, or the organization's history names them. */
export async function userIsOrganizations(db: Database, organizationId: string, userId: string) {
  return (
    !!(await db
      .prepare("SELECT 1 FROM membership WHERE organization_id = ? AND user_id = ?")
      .bind(organizationId, userId)
      .first()) ||
    !!(await db
      .prepare(
        "SELECT 1 FROM audit_event WHERE organization_id = ? AND entity_type = 'user' AND entity_id = ? LIMIT 1",
      )
      .bind(organizationId, userId)
      .first())
  );
}

export type AuditEventRow = {
  id: E["id"];
  action: E["action"];
  reason: E["reason"];
  at: E["at"];
  before: E["before"];
  after: E["after"];
  ip: E["ip"];
  actorId: E["actor_id"];
  impersonatorId: E["impersonator_id"];
};

/**
 * Keyset on (at, id), newest first, rows before (`cursorAt`, `cursorId`): rows written in the same
 * millisecond are neither skipped nor repeated. Asks one row more than `limit` to know if more exist.
 */
export async function auditPage(
  db: Database,
  q: {
    organizationId: string;
    entityType: string;
    entityId: string;
    cursorAt: number;
    cursorId: string;
    limit: number;
  },
) {
  const { results } = await db
    .prepare(
      `SELECT a.id, a.action, a.reason, a.at, a.before, a.after, a.ip, a.actor_id AS actorId,
              a.impersonator_id AS impersonatorId
         FROM audit_event a
        WHERE a.organization_id = ? AND a.entity_type = ? AND a.entity_id = ?
          AND (a.at < ? OR (a.at = ? AND a.id < ?))
        ORDER BY a.at DESC, a.id DESC LIMIT ?`,
    )
    .bind(q.organizationId, q.entityType, q.entityId, q.cursorAt, q.cursorAt, q.cursorId, q.limit + 1)
    .all<AuditEventRow>();
  return results;
}
