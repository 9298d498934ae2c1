/**
 * The audit trail of one record (DESIGN §4), org-scoped: another organization's record is NOT_FOUND;
 * reading it needs the right to view that kind of record (core/permissions.ts).
 */

import { hasOrgPermission, type Permissions } from "@core/permissions";
import { directoryDatabase, orgDb } from "../../db/databases";
import { fail } from "../../lib/fail";
import type { OrgCtx } from "../../trpc/init";
import { presentAuditRows } from "./present";
import { auditPage, type OwnedTable, recordIsOrganizations, userIsOrganizations } from "./queries";

/**
 * Which right reading a record's history needs, the table proving the record is this org's, and
 * which database holds the record and so its audit rows (decision 027: a row lives with its change).
 */
const ENTITIES = {
  campaign: { table: "campaign", permission: { campaign: ["view"] }, home: "organization" },
  campaign_item: { table: "campaign_item", permission: { campaign: ["view"] }, home: "organization" },
  donor: { table: "donor", permission: { donor: ["view"] }, home: "organization" },
  donation: { table: "donation", permission: { donation: ["view"] }, home: "organization" },
  organization: { table: null, permission: { organization: ["view"] }, home: "organization" },
  invitation: { table: "invitation", permission: { member: ["view"] }, home: "directory" },
  user: { table: null, permission: { member: ["view"] }, home: "directory" },
} as const satisfies Record<
  string,
  { table: OwnedTable | null; permission: Permissions; home: "organization" | "directory" }
>;

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
  const db = entity.home === "organization" ? orgDb(ctx) : directoryDatabase(ctx.env);
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
  const here = { entityType: input.entityType, entityId: input.entityId };
  const rows = await presentAuditRows(
    directoryDatabase(ctx.env),
    orgDb(ctx),
    results.slice(0, input.limit).map((r) => ({ ...r, ...here })),
    {
      here,
      organizationId: ctx.org.id,
      timeZone: ctx.org.timeZone,
      currency: ctx.org.defaultCurrency,
      // An IP address is personal data of the member who acted: only platform admins, who look
      // into an account's security, see it (decision 052).
      canSeeIp: ctx.org.isPlatformAdmin,
    },
  );
  const last = rows[rows.length - 1];
  return {
    rows,
    nextCursor: results.length > input.limit && last ? `${last.at}:${last.id}` : undefined,
  };
}
