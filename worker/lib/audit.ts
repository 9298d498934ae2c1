/** Audit rows are written in the SAME batch as the change they describe (DESIGN §4). */

import { type Database, directoryDatabase, organizationDatabase } from "../db/databases";
import type { AuditAction } from "../users/audit/sentences";
import type { Guard } from "./guard";
import { generateId } from "./ids";

export type { AuditAction };

export interface AuditActor {
  env: Env;
  /** null: the system (the payment processor's webhook, a cron job). */
  user: { id: string } | null;
  impersonatorId?: string | null;
  ip?: string | null;
  org?: { id: string } | null;
}

interface AuditRow {
  id?: string;
  organizationId: string | null;
  actorId: string | null;
  impersonatorId?: string | null;
  action: AuditAction;
  entityType: string;
  entityId: string;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  ip?: string | null;
  at: number;
}

/** The audit trail's one INSERT; with `guard`, written only if the guard holds (decision 020). */
export function auditInsert(db: Database, e: AuditRow, guard?: Guard): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO audit_event (id, organization_id, actor_id, impersonator_id, action, entity_type, entity_id, before, after, reason, ip, at)
     ${guard ? `SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12 WHERE ${guard.sql(13)}` : "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"}`,
    )
    .bind(
      e.id ?? generateId(),
      e.organizationId,
      e.actorId,
      e.impersonatorId ?? null,
      e.action,
      e.entityType,
      e.entityId,
      e.before === undefined ? null : JSON.stringify(e.before),
      e.after === undefined ? null : JSON.stringify(e.after),
      e.reason ?? null,
      e.ip ?? null,
      e.at,
      ...(guard?.args ?? []),
    );
}

/** An audit row for `actor`'s change now; `e.id` names it so later statements can guard on it. */
export function auditStatement(
  actor: AuditActor,
  e: {
    id?: string;
    action: AuditAction;
    entityType: string;
    entityId: string;
    before?: unknown;
    after?: unknown;
    reason?: string | null;
    organizationId?: string | null;
  },
  guard?: Guard,
): D1PreparedStatement {
  // The row lives with the change it describes: an organization's in its database (decision 027).
  return auditInsert(
    actor.org ? organizationDatabase(actor.env, actor.org.id) : directoryDatabase(actor.env),
    {
      ...e,
      organizationId: e.organizationId ?? actor.org?.id ?? null,
      actorId: actor.user?.id ?? null,
      impersonatorId: actor.impersonatorId ?? null,
      ip: actor.ip ?? null,
      at: Date.now(),
    },
    guard,
  );
}
