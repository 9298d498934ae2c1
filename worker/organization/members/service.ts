/**
 * Members (DESIGN §4, decision 017): owners alone make or unmake owners, an organization always keeps
 * an owner (decision 046), and removing a membership keeps the person and their history.
 */

import type { MemberRole } from "@core/organization";
import { type Database, directoryDatabase } from "../../db/databases";
import { auditStatement } from "../../lib/audit";
import { fail } from "../../lib/fail";
import { auditGuard, previousWriteLanded } from "../../lib/guard";
import { generateId } from "../../lib/ids";
import type { AdminCtx, OrgCtx, OrgReader } from "../../trpc/init";
import {
  deleteMembershipKeepingAnOwnerStatement,
  deleteOwnMembershipStatement,
  endOffersOfStatement,
  forgetActiveOrganizationStatement,
  membershipById,
  membershipIn,
  membershipOf,
  membershipsOfUser,
  membersOf,
  otherOwnerExists,
  setRoleStatement,
  upsertMembershipStatement,
  userAndOrganizationExist,
} from "./queries";

const LAST_OWNER_MESSAGE =
  "An organization needs at least one owner: make someone else owner first, or delete the organization";

const lastOwner = (): never => fail("UNPROCESSABLE_CONTENT", LAST_OWNER_MESSAGE);

/**
 * The last owner cannot leave, be removed or be demoted: checked here for a clear answer, and by every
 * such write (queries.ts `keepsAnOwnerSql`), so two owners stepping down at once leave one.
 */
async function assertNotLastOwner(
  db: Database,
  organizationId: string,
  userId: string,
  role: string,
  newRole: string | null,
) {
  if (role !== "owner" || newRole === "owner") return;
  if (!(await otherOwnerExists(db, organizationId, userId))) lastOwner();
}

/** The write that was refused by its own condition: the last-owner rule, or a change meanwhile. */
async function refusedWrite(
  db: Database,
  organizationId: string,
  userId: string,
  role: string,
): Promise<never> {
  const now = await membershipOf(db, organizationId, userId);
  if (now?.role === "owner" && role === "owner" && !(await otherOwnerExists(db, organizationId, userId)))
    lastOwner();
  return fail("CONFLICT", "The member changed meanwhile; reload and try again");
}

/** Only owners (and platform admins) hand out or take away the owner role. */
export function assertMayGrant(org: { role: string | null; isPlatformAdmin: boolean }, role: string) {
  if (role === "owner" && org.role !== "owner" && !org.isPlatformAdmin)
    fail("FORBIDDEN", "Only an owner can make or change owners");
}

export const listMembers = (ctx: OrgReader) => membersOf(directoryDatabase(ctx.env), ctx.org.id);

/** Org owners and admins change a member's role; owners alone make or unmake owners. */
export async function setMemberRole(ctx: OrgCtx, input: { membershipId: string; role: MemberRole }) {
  const db = directoryDatabase(ctx.env);
  const m = await membershipIn(db, ctx.org.id, input.membershipId);
  if (!m) fail("NOT_FOUND", "Member not found");
  if (m.role === input.role) return { id: m.id, role: m.role };
  assertMayGrant(ctx.org, m.role);
  assertMayGrant(ctx.org, input.role);
  await assertNotLastOwner(db, ctx.org.id, m.user_id, m.role, input.role);
  const [r] = await db.batch([
    setRoleStatement(db, m.id, m.role, input.role, Date.now()),
    auditStatement(
      ctx,
      {
        action: "member.set_role",
        entityType: "user",
        entityId: m.user_id,
        before: { role: m.role },
        after: { role: input.role },
      },
      previousWriteLanded,
    ),
  ]);
  if (!r?.meta.changes) await refusedWrite(db, ctx.org.id, m.user_id, m.role);
  return { id: m.id, role: input.role };
}

/** Removes a member from this organization; their past actions and records stay (DESIGN §4). */
export async function removeOrgMember(ctx: OrgCtx, input: { membershipId: string; reason?: string }) {
  const db = directoryDatabase(ctx.env);
  const m = await membershipIn(db, ctx.org.id, input.membershipId);
  if (!m) fail("NOT_FOUND", "Member not found");
  assertMayGrant(ctx.org, m.role);
  await assertNotLastOwner(db, ctx.org.id, m.user_id, m.role, null);
  const auditId = generateId();
  const [r] = await db.batch([
    deleteMembershipKeepingAnOwnerStatement(db, m.id, m.role),
    auditStatement(
      ctx,
      {
        id: auditId,
        action: "member.remove",
        entityType: "user",
        entityId: m.user_id,
        before: { role: m.role },
        reason: input.reason,
      },
      previousWriteLanded,
    ),
    forgetActiveOrganizationStatement(db, m.user_id, ctx.org.id, auditGuard(auditId)),
    endOffersOfStatement(db, ctx.org.id, m.user_id, Date.now(), auditGuard(auditId)),
  ]);
  if (!r?.meta.changes) await refusedWrite(db, ctx.org.id, m.user_id, m.role);
  return { ok: true };
}

/** The caller leaves the current organization (the last owner cannot). */
export async function leave(ctx: OrgCtx) {
  const db = directoryDatabase(ctx.env);
  if (!ctx.org.role) fail("NOT_FOUND", "You are not a member of this organization");
  await assertNotLastOwner(db, ctx.org.id, ctx.user.id, ctx.org.role, null);
  const auditId = generateId();
  const [r] = await db.batch([
    deleteOwnMembershipStatement(db, ctx.org.id, ctx.user.id),
    auditStatement(
      ctx,
      {
        id: auditId,
        action: "member.leave",
        entityType: "user",
        entityId: ctx.user.id,
        before: { role: ctx.org.role },
      },
      previousWriteLanded,
    ),
    forgetActiveOrganizationStatement(db, ctx.user.id, ctx.org.id, auditGuard(auditId)),
    endOffersOfStatement(db, ctx.org.id, ctx.user.id, Date.now(), auditGuard(auditId)),
  ]);
  if (!r?.meta.changes) await refusedWrite(db, ctx.org.id, ctx.user.id, ctx.org.role);
  return { ok: true };
}

/** One user's memberships (platform admin; organizers of SPEC §2 are users with a membership). */
export const userMemberships = (ctx: Pick<AdminCtx, "env">, userId: string) =>
  membershipsOfUser(directoryDatabase(ctx.env), userId);

/** A platform admin adds a user to any organization, or changes their role there. */
export async function addMember(
  ctx: AdminCtx,
  input: { userId: string; organizationId: string; role: MemberRole },
) {
  const db = directoryDatabase(ctx.env);
  const exists = await userAndOrganizationExist(db, input.userId, input.organizationId);
  if (!exists.user) fail("NOT_FOUND", "User not found");
  if (!exists.organization) fail("NOT_FOUND", "Organization not found");
  const current = await membershipOf(db, input.organizationId, input.userId);
  if (current) await assertNotLastOwner(db, input.organizationId, input.userId, current.role, input.role);
  const [r] = await db.batch([
    upsertMembershipStatement(db, { id: generateId(), ...input }, Date.now()),
    auditStatement(
      ctx,
      {
        action: "member.add",
        entityType: "user",
        entityId: input.userId,
        before: current ? { role: current.role } : undefined,
        after: input,
        organizationId: input.organizationId,
      },
      previousWriteLanded,
    ),
  ]);
  if (!r?.meta.changes) await refusedWrite(db, input.organizationId, input.userId, current?.role ?? "");
  return { ok: true };
}

/** A platform admin removes a membership; the person and their history stay (DESIGN §4). */
export async function removeMember(ctx: AdminCtx, membershipId: string) {
  const db = directoryDatabase(ctx.env);
  const m = await membershipById(db, membershipId);
  if (!m) fail("NOT_FOUND", "Membership not found");
  await assertNotLastOwner(db, m.organization_id, m.user_id, m.role, null);
  const auditId = generateId();
  const [r] = await db.batch([
    deleteMembershipKeepingAnOwnerStatement(db, membershipId, m.role),
    auditStatement(
      ctx,
      {
        id: auditId,
        action: "member.remove",
        entityType: "user",
        entityId: m.user_id,
        before: m,
        organizationId: m.organization_id,
      },
      previousWriteLanded,
    ),
    forgetActiveOrganizationStatement(db, m.user_id, m.organization_id, auditGuard(auditId)),
    endOffersOfStatement(db, m.organization_id, m.user_id, Date.now(), auditGuard(auditId)),
  ]);
  if (!r?.meta.changes) await refusedWrite(db, m.organization_id, m.user_id, m.role);
  return { ok: true };
}
