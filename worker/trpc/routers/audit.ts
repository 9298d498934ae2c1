/**
 * The audit trail of one record (DESIGN §4), for the History panel. Org-scoped: rows of another
 * organization are never returned, and a record id of another organization answers NOT_FOUND.
 */

import { hasOrgPermission, type Permissions } from "@core/permissions";
import { z } from "zod";
import { fail, orgProcedure, router } from "../init";

/** Which right reading a record's history needs, and the table proving the record is this org's. */
const ENTITIES = {
  campaign: { table: "campaign", permission: { campaign: ["view"] } },
  campaign_item: { table: "campaign_item", permission: { campaign: ["view"] } },
  donor: { table: "donor", permission: { donor: ["view"] } },
  donation: { table: "donation", permission: { donation: ["view"] } },
  organization: { table: null, permission: { organization: ["view"] } },
  invitation: { table: "invitation", permission: { member: ["view"] } },
  user: { table: null, permission: { member: ["view"] } },
} as const satisfies Record<string, { table: string | null; permission: Permissions }>;

export const auditEntityTypes = Object.keys(ENTITIES) as [
  keyof typeof ENTITIES,
  ...(keyof typeof ENTITIES)[],
];
export type AuditEntityType = keyof typeof ENTITIES;

export interface AuditChange {
  field: string;
  from: string | null;
  to: string | null;
}

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const show = (v: unknown) =>
  v === null || v === undefined ? null : (typeof v === "string" ? v : JSON.stringify(v)).slice(0, 120);

/** Field-level differences; `before` is often a raw row (snake_case), `after` the input (camelCase). */
export function diffAudit(before: unknown, after: unknown): AuditChange[] {
  const b = Object.fromEntries(
    Object.entries((before && typeof before === "object" ? before : {}) as Record<string, unknown>).map(
      ([k, v]) => [camel(k), v],
    ),
  );
  const a = (after && typeof after === "object" ? after : {}) as Record<string, unknown>;
  const out: AuditChange[] = [];
  for (const [field, to] of Object.entries(a)) {
    if (field === "updatedAt" || field === "id") continue;
    const from = b[field];
    if (show(from ?? null) === show(to ?? null)) continue;
    out.push({ field, from: show(from), to: show(to) });
    if (out.length >= 25) break;
  }
  return out;
}

function parse(s: string | null): unknown {
  if (!s) return null;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

export const auditRouter = router({
  list: orgProcedure({ organization: ["view"] })
    .input(
      z
        .object({
          entityType: z.enum(auditEntityTypes),
          entityId: z.string().min(1).max(100),
          /** "at:id" of the last row seen: the next page of a long history (tRPC's infinite-query key). */
          cursor: z
            .string()
            .regex(/^\d{1,16}:[A-Za-z0-9_-]{1,64}$/)
            .nullish(),
          /** Sent by tRPC's infinite queries; only older pages exist, so it changes nothing. */
          direction: z.enum(["forward", "backward"]).optional(),
          limit: z.number().int().min(1).max(100).default(50),
        })
        .strict(),
    )
    .query(async ({ ctx, input }) => {
      const entity = ENTITIES[input.entityType];
      const caller = { userId: ctx.user.id, role: ctx.user.role };
      if (!hasOrgPermission(caller, ctx.org.role, entity.permission, ctx.config.auth.adminUserIds))
        fail("FORBIDDEN", `You are not allowed to access resource: ${Object.keys(entity.permission)[0]}`);
      const db = ctx.env.DB;
      // The record must be this organization's: another tenant's id is NOT_FOUND, not an empty list.
      const owned =
        input.entityType === "organization"
          ? input.entityId === ctx.org.id
          : input.entityType === "user"
            ? !!(await db
                .prepare("SELECT 1 FROM membership WHERE organization_id = ? AND user_id = ?")
                .bind(ctx.org.id, input.entityId)
                .first()) ||
              !!(await db
                .prepare(
                  "SELECT 1 FROM audit_event WHERE organization_id = ? AND entity_type = 'user' AND entity_id = ? LIMIT 1",
                )
                .bind(ctx.org.id, input.entityId)
                .first())
            : !!(await db
                .prepare(`SELECT 1 FROM ${entity.table} WHERE organization_id = ? AND id = ?`)
                .bind(ctx.org.id, input.entityId)
                .first());
      if (!owned) fail("NOT_FOUND", "Not found");
      // Keyset on (at, id): rows written in the same millisecond are neither skipped nor repeated.
      const [cursorAt, cursorId] = input.cursor
        ? [Number(input.cursor.split(":")[0]), input.cursor.split(":")[1] ?? ""]
        : [Number.MAX_SAFE_INTEGER, ""];
      const { results } = await db
        .prepare(
          `SELECT a.id, a.action, a.reason, a.at, a.before, a.after, a.ip, a.actor_id AS actorId,
                  u.name AS actor, i.name AS impersonator
             FROM audit_event a LEFT JOIN user u ON u.id = a.actor_id LEFT JOIN user i ON i.id = a.impersonator_id
            WHERE a.organization_id = ? AND a.entity_type = ? AND a.entity_id = ?
              AND (a.at < ? OR (a.at = ? AND a.id < ?))
            ORDER BY a.at DESC, a.id DESC LIMIT ?`,
        )
        .bind(ctx.org.id, input.entityType, input.entityId, cursorAt, cursorAt, cursorId, input.limit + 1)
        .all<{
          id: string;
          action: string;
          reason: string | null;
          at: number;
          before: string | null;
          after: string | null;
          ip: string | null;
          actorId: string | null;
          actor: string | null;
          impersonator: string | null;
        }>();
      const canSeeIp = ctx.org.isPlatformAdmin || ctx.org.role === "owner" || ctx.org.role === "admin";
      const rows = results.slice(0, input.limit).map((r) => ({
        id: r.id,
        action: r.action,
        reason: r.reason,
        at: r.at,
        actor: r.actor,
        impersonator: r.impersonator,
        // IP addresses are personal data: only the organization's owners and admins see them.
        ip: canSeeIp ? r.ip : null,
        changes: diffAudit(parse(r.before), parse(r.after)),
      }));
      const last = rows[rows.length - 1];
      return {
        rows,
        nextCursor: results.length > input.limit && last ? `${last.at}:${last.id}` : undefined,
      };
    }),
});
