/**
 * The audit trail of one record (DESIGN §4), for the History panel. Org-scoped: rows of another
 * organization are never returned, and a record id of another organization answers NOT_FOUND.
 * Reading a record's history needs the right to view that kind of record (core/permissions.ts).
 */
import { hasOrgPermission, type Permissions } from "@core/permissions";
import { fail, type OrgCtx } from "../../trpc/init";
import { presentAuditEvent } from "./present";
import { auditPage, type OwnedTable, recordIsOrganizations, userIsOrganizations } from "./queries";

/** Which right reading a record's history needs, and the table proving the record is this org's. */
const ENTITIES = {
  campaign: { table: "campaign", permission: { campaign: ["view"] } },
  campaign_item: { table: "campaign_item", permission: { campaign: ["view"] } },
  donor: { table: "donor", permission: { donor: ["view"] } },
  donation: { table: "donation", permission: { donation: ["view"] } },
  organization: { table: null, permission: { organization: ["view"] } },
  invitation: { table: "invitation", permission: { member: ["view"] } },
  user: { table: null, permission: { member: ["view"] } },
} as const satisfies Record<string, { table: OwnedTable | null; permission: Permissions }>;

export const auditEntityTypes = Object.keys(ENTITIES) as [
  keyof typeof ENTITIES,
  ...(keyof typeof ENTITIES)[],
];
export type AuditEntityType = keyof typeof ENTITIES;

export async function auditTrail(
  ctx: Pick<OrgCtx, "env" | "config" | "user" | "org">,
  input: { entityType: AuditEntityType; entityId: string; cursor?: string | null; limit: number },
) {
  const entity = ENTITIES[input.entityType];
  const caller = { userId: ctx.user.id, role: ctx.user.role };
  if (!hasOrgPermission(caller, ctx.org.role, entity.permission, ctx.config.auth.adminUserIds))
    fail("FORBIDDEN", `You are not allowed to access resource: ${Object.keys(entity.permission)[0]}`);
  const db = ctx.env.DB;
  // The record must be this organization's: another tenant's id is NOT_FOUND, not an empty list.
  const owned =
    entity.table === null
      ? input.entityType === "organization"
        ? input.entityId === ctx.org.id
        : await userIsOrganizations(db, ctx.org.id, input.entityId)
      : await recordIsOrganizations(db, entity.table, ctx.org.id, input.entityId);
  if (!owned) fail("NOT_FOUND", "Not found");
  const [cursorAt, cursorId] = input.cursor
    ? [Number(input.cursor.split(":")[0]), input.cursor.split(":")[1] ?? ""]
    : [Number.MAX_SAFE_INTEGER, ""];
  const results = await auditPage(db, {
    organizationId: ctx.org.id,
    entityType: input.entityType,
    entityId: input.entityId,
    cursorAt,
    cursorId,
    limit: input.limit,
  });
  const canSeeIp = ctx.org.isPlatformAdmin || ctx.org.role === "owner" || ctx.org.role === "admin";
  const rows = results.slice(0, input.limit).map((r) => presentAuditEvent(r, canSeeIp));
  const last = rows[rows.length - 1];
  return {
    rows,
    nextCursor: results.length > input.limit && last ? `${last.at}:${last.id}` : undefined,
  };
}
