/** Audit rows are written in the SAME batch as the change they describe (DESIGN §4). */
import { generateId } from "../auth/crypto";

export interface AuditActor {
  env: Env;
  user: { id: string };
  impersonatorId?: string | null;
  ip?: string | null;
  org?: { id: string } | null;
}

export function auditStatement(
  actor: AuditActor,
  e: {
    action: string;
    entityType: string;
    entityId: string;
    before?: unknown;
    after?: unknown;
    reason?: string | null;
    organizationId?: string | null;
  },
): D1PreparedStatement {
  return actor.env.DB.prepare(
    `INSERT INTO audit_event (id, organization_id, actor_id, impersonator_id, action, entity_type, entity_id, before, after, reason, ip, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).bind(
    generateId(),
    e.organizationId ?? actor.org?.id ?? null,
    actor.user.id,
    actor.impersonatorId ?? null,
    e.action,
    e.entityType,
    e.entityId,
    e.before === undefined ? null : JSON.stringify(e.before),
    e.after === undefined ? null : JSON.stringify(e.after),
    e.reason ?? null,
    actor.ip ?? null,
    Date.now(),
  );
}
