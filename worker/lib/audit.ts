/** Audit rows are written in the SAME batch as the change they describe (DESIGN §4). */
import { generateId } from "../auth/crypto";
import type { Guard } from "./guard";

export interface AuditActor {
  env: Env;
  /** null: the system (the payment processor's webhook, a cron job). */
  user: { id: string } | null;
  impersonatorId?: string | null;
  ip?: string | null;
  org?: { id: string } | null;
}

/**
 * With `guard`, the row is written only if the guard holds (decision 020: a change that lost its
 * race leaves no history either); `e.id` names the row so later statements can guard on it.
 */
export function auditStatement(
  actor: AuditActor,
  e: {
    id?: string;
    action: string;
    entityType: string;
    entityId: string;
    before?: unknown;
    after?: unknown;
    reason?: string | null;
    organizationId?: string | null;
  },
  guard?: Guard,
): D1PreparedStatement {
  return actor.env.DB.prepare(
    `INSERT INTO audit_event (id, organization_id, actor_id, impersonator_id, action, entity_type, entity_id, before, after, reason, ip, at)
     ${guard ? `SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12 WHERE ${guard.sql(13)}` : "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"}`,
  ).bind(
    e.id ?? generateId(),
    e.organizationId ?? actor.org?.id ?? null,
    actor.user?.id ?? null,
    actor.impersonatorId ?? null,
    e.action,
    e.entityType,
    e.entityId,
    e.before === undefined ? null : JSON.stringify(e.before),
    e.after === undefined ? null : JSON.stringify(e.after),
    e.reason ?? null,
    actor.ip ?? null,
    Date.now(),
    ...(guard?.args ?? []),
  );
}
