/**
 * The organization profile (DESIGN §4) and the one a caller works in: the tenant comes from the
 * membership (DESIGN §3, worker/trpc/org.ts).
 */

import type { OrganizationInput } from "@core/organization";
import { hasOrgPermission } from "@core/permissions";
import { directoryDatabase, orgDb, placedApart } from "../db/databases";
import { dropOtherZones } from "../ledger/rollup-builds";
import { buildDailyRollups } from "../ledger/rollups";
import { auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import { assertOwnMedia } from "../media/service";
import type { AdminCtx, OrgCtx } from "../trpc/init";
import { listSelectableOrganizations } from "../trpc/org";
import { presentOrganization } from "./present";
import { allOrganizations, organizationById, setActiveOrganization, updateProfileStatement } from "./queries";

type Ctx = Pick<OrgCtx, "env" | "config" | "user" | "org">;

export async function currentOrganization(ctx: Ctx) {
  const o = await organizationById(orgDb(ctx), ctx.org.id);
  if (!o) fail("NOT_FOUND", "Organization not found");
  // The page offers Edit to whoever organization.update would let through (core/permissions.ts).
  const canEdit = hasOrgPermission(
    { userId: ctx.user.id, role: ctx.user.role },
    ctx.org.role,
    { organization: ["update"] },
    ctx.config.auth.adminUserIds,
  );
  return presentOrganization(o, { role: ctx.org.role, canEdit });
}

/** How long a time-zone change's own request spends building the new zone's rollups (decision 038). */
const ZONE_CHANGE_BUILD_MS = 3_000;

/**
 * One batch: the profile, its audit row, and dropping per-day rollups of another zone. The directory's
 * copy of a placed-apart organization's row follows after (decision 027: a batch never spans databases).
 */
export async function updateOrganization(ctx: OrgCtx, input: OrganizationInput) {
  const db = orgDb(ctx);
  const before = await organizationById(db, ctx.org.id);
  // As a campaign's cover: an uploaded logo must be this organization's image (decision 017).
  if (input.logoUrl !== before?.logo_url) await assertOwnMedia(ctx.env, ctx.org.id, input.logoUrl, "logoUrl");
  await db.batch([
    updateProfileStatement(db, ctx.org.id, input, Date.now()),
    auditStatement(ctx, {
      action: "organization.update",
      entityType: "organization",
      entityId: ctx.org.id,
      before,
      after: input,
    }),
    // Local days of another zone no longer match the list's date filters (decision 013).
    ...dropOtherZones(db, ctx.org.id, input.timeZone),
  ]);
  if (placedApart(ctx.env, ctx.org.id)) {
    await updateProfileStatement(directoryDatabase(ctx.env), ctx.org.id, input, Date.now()).run();
  }
  // The per-day rollups in the new zone, in stretches of days (decisions 038, 043): a small
  // organization's within this request; a large one's first stretches here, the rest by the cron.
  if (before?.time_zone !== input.timeZone)
    await buildDailyRollups(db, ctx.org.id, input.timeZone, { deadline: Date.now() + ZONE_CHANGE_BUILD_MS });
  return { id: ctx.org.id };
}

type AuthedCtx = Pick<AdminCtx, "env" | "config" | "user">;

/** Organizations the caller can switch between (memberships; all for platform admins). */
export const selectableOrganizations = (ctx: AuthedCtx) =>
  listSelectableOrganizations(directoryDatabase(ctx.env), ctx.user, ctx.config);

/** Remembers the organization the portal opens on; only one the caller may act in. */
export async function setActive(ctx: AuthedCtx, organizationId: string) {
  const options = await selectableOrganizations(ctx);
  if (!options.some((o) => o.id === organizationId)) fail("NOT_FOUND", "Organization not found");
  await setActiveOrganization(directoryDatabase(ctx.env), ctx.user.id, organizationId);
  return { organizationId };
}

export const listAllOrganizations = (ctx: Pick<AdminCtx, "env">) =>
  allOrganizations(directoryDatabase(ctx.env));
