// The one way a recurring plan changes (decision 030), as donation-change.ts is for gifts: ONE batch, the row
// write conditional on the token read, its event, rollups and audit row guarded by the fresh token.
import { annualMinor, type PlanInterval } from "@core/plans";
import type { Database } from "../db/databases";
import type { Row } from "../db/rows";
import type { recurringPlan } from "../db/schema";
import { type AuditAction, type AuditActor, auditStatement } from "../lib/audit";
import type { Guard } from "../lib/guard";
import { generateId } from "../lib/ids";
import { type PlanFacts, planChangeStatements } from "./plan-rollups";

export type PlanRow = Row<typeof recurringPlan>;

/** The plan as a change reads it before planning. */
export function planRow(db: Database, orgId: string, id: string) {
  return db
    .prepare("SELECT * FROM recurring_plan WHERE organization_id = ? AND id = ?")
    .bind(orgId, id)
    .first<PlanRow>();
}

/** The plan carries this change token: the write that set it landed and nothing wrote since. */
const planTokenGuard = (planId: string, token: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM recurring_plan WHERE id = ?${p} AND change_token = ?${p + 1})`,
  args: [planId, token],
});

const planFacts = (p: PlanRow): PlanFacts => ({
  organizationId: p.organization_id,
  currency: p.currency,
  status: p.status,
  annual: annualMinor(p.amount_minor, p.interval as PlanInterval),
});

/** The columns a change writes (id, organization_id, created_* are set at insert). */
const COLUMNS = [
  "donor_id",
  "campaign_id",
  "amount_minor",
  "currency",
  "interval",
  "interval_day",
  "status",
  "source",
  "gateway",
  "gateway_subscription_id",
  "payment_method",
  "started_at",
  "next_expected_at",
  "ended_at",
  "status_changed_at",
  "gift_count",
  "given_minor",
  "last_gift_at",
  "missed_count",
  "resume_at",
  "updated_at",
] as const satisfies readonly (keyof PlanRow)[];

interface PlanChange {
  /** The plan as read, change token included; null for a new plan. */
  before: PlanRow | null;
  after: PlanRow;
  /** What history and rollups record; null when they count nothing (a gift moving the next due date on). */
  event: { kind: "created" | "status" | "amount"; at: number; reason?: string | null } | null;
  /** null with `event` null: the gift's own audit row tells it. */
  audit: { action: AuditAction; before?: unknown; after?: unknown; reason?: string | null } | null;
  /** Inserts: a second plan for the same processor subscription is not inserted (webhook idempotency). */
  ignoreDuplicate?: boolean;
}

export type PlanActor = AuditActor & { org: { id: string; timeZone: string } };

export function planChangeBatch(db: Database, actor: PlanActor, c: PlanChange) {
  const token = generateId();
  const a = c.after;
  const args: unknown[] = [];
  const p = (v: unknown) => `?${args.push(v)}`;
  let sql: string;
  if (!c.before) {
    sql = `INSERT INTO recurring_plan (id, organization_id, ${COLUMNS.join(", ")}, change_token, created_by, created_at)
           VALUES (${p(a.id)}, ${p(a.organization_id)}, ${COLUMNS.map((col) => p(a[col])).join(", ")}, ${p(token)}, ${p(a.created_by)}, ${p(a.created_at)})
           ${c.ignoreDuplicate ? "ON CONFLICT (organization_id, gateway_subscription_id) WHERE gateway_subscription_id IS NOT NULL DO NOTHING" : ""}`;
  } else {
    const b = c.before;
    const set = COLUMNS.filter((col) => col === "updated_at" || a[col] !== b[col]).map(
      (col) => `${col} = ${p(a[col])}`,
    );
    set.push(`change_token = ${p(token)}`);
    sql = `UPDATE recurring_plan SET ${set.join(", ")}
            WHERE id = ${p(b.id)} AND organization_id = ${p(b.organization_id)} AND change_token IS ${p(b.change_token)}`;
  }
  const guard = planTokenGuard(a.id, token);
  const statements: D1PreparedStatement[] = [db.prepare(sql).bind(...args)];
  if (c.event)
    statements.push(
      ...planChangeStatements(
        db,
        c.before ? planFacts(c.before) : null,
        planFacts(a),
        {
          id: generateId(),
          planId: a.id,
          at: c.event.at,
          kind: c.event.kind,
          reason: c.event.reason,
          actorId: actor.user?.id ?? null,
        },
        actor.org.timeZone,
        guard,
      ),
    );
  if (c.audit)
    statements.push(
      auditStatement(
        actor,
        {
          action: c.audit.action,
          entityType: "plan",
          entityId: a.id,
          before: c.audit.before,
          after: c.audit.after,
          reason: c.audit.reason,
        },
        guard,
      ),
    );
  return { statements, writeIndex: 0, guard, token };
}

/** Runs one plan change; false when another write changed the plan since `before` was read. */
export async function writePlan(db: Database, actor: PlanActor, c: PlanChange): Promise<boolean> {
  const { statements } = planChangeBatch(db, actor, c);
  const res = await db.batch(statements);
  return !!res[0]?.meta.changes;
}
