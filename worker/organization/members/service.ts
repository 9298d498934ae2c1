/**
 * Members of an organization (DESIGN §4, decision 017): owners and org admins change roles and
 * remove members, owners alone make or unmake owners, an organization always keeps an owner, and a
 * member may leave. Platform admins add and remove memberships of any organization. Removing a
 * membership keeps the person and their history.
 */
import type { MemberRole } from "@core/organization";
import { generateId } from "../../auth/crypto";
import { type Database, directoryDatabase } from "../../db/databases";
import { auditStatement } from "../../lib/audit";
import { type AdminCtx, fail, type OrgCtx } from "../../trpc/init";
import {
  clearActiveOrganizationStatement,
  deleteMembershipKeepingAnOwnerStatement,
  deleteMembershipStatement,
  deleteOwnMembershipStatement,
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

/** An organization always keeps at least one owner: the last one cannot leave or be demoted. */
async function assertNotLastOwner(
  db: Database,
  organizationId: string,
  userId: string,
  role: string,
  newRole: string | null,
) {
  if (role !== "owner" || newRole === "owner") return;
  if (!(await otherOwnerExists(db, organizationId, userId)))
    fail("UNPROCESSABLE_CONTENT", "An organization needs at least one owner: make someone else owner first");
}

/** Only owners (and platform admins) hand out or take away the owner role. */
export function assertMayGrant(org: { role: string | null; isPlatformAdmin: boolean }, role: string) {
  if (role === "owner" && org.role !== "owner" && !org.isPlatformAdmin)
    fail("FORBIDDEN", "Only an owner can make or change owners");
}

export const listMembers = (ctx: Pick<OrgCtx, "env" | "org">) =>
  membersOf(directoryDatabase(ctx.env), ctx.org.id);

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
    auditStatement(ctx, {
      action: "member.set_role",
      entityType: "user",
      entityId: m.user_id,
      before: { role: m.role },
      after: { role: input.role },
    }),
  ]);
  if (!r?.meta.changes) fail("CONFLICT", "The member changed meanwhile; reload and try again");
  return { id: m.id, role: input.role };
}

/** Removes a member from this organization; their past actions and records stay (DESIGN §4). */
export async function removeOrgMember(ctx: OrgCtx, input: { membershipId: string; reason?: string }) {
  const db = directoryDatabase(ctx.env);
  const m = await membershipIn(db, ctx.org.id, input.membershipId);
  if (!m) fail("NOT_FOUND", "Member not found");
  assertMayGrant(ctx.org, m.role);
  await assertNotLastOwner(db, ctx.org.id, m.user_id, m.role, null);
  await db.batch([
    deleteMembershipKeepingAnOwnerStatement(db, m.id),
    forgetActiveOrganizationStatement(db, m.user_id, ctx.org.id),
    auditStatement(ctx, {
      action: "member.remove",
      entityType: "user",
      entityId: m.user_id,
      before: { role: m.role },
      reason: input.reason,
    }),
  ]);
  return { ok: true };
}

/** The caller leaves the current organization (the last owner cannot). */
export async function leave(ctx: OrgCtx) {
  const db = directoryDatabase(ctx.env);
  if (!ctx.org.role) fail("NOT_FOUND", "You are not a member of this organization");
  await assertNotLastOwner(db, ctx.org.id, ctx.user.id, ctx.org.role, null);
  await db.batch([
    deleteOwnMembershipStatement(db, ctx.org.id, ctx.user.id),
    clearActiveOrganizationStatement(db, ctx.user.id),
    auditStatement(ctx, {
      action: "member.leave",
      entityType: "user",
      entityId: ctx.user.id,
      before: { role: ctx.org.role },
    }),
  ]);
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
  await db.batch([
    upsertMembershipStatement(db, { id: generateId(), ...input }, Date.now()),
    auditStatement(ctx, {
      action: "member.add",
      entityType: "user",
      entityId: input.userId,
      after: input,
      organizationId: input.organizationId,
    }),
  ]);
  return { ok: true };
}

/** A platform admin removes a membership; the person and their history stay (DESIGN §4). */
export async function removeMember(ctx: AdminCtx, membershipId: string) {
  const db = directoryDatabase(ctx.env);
  const m = await membershipById(db, membershipId);
  if (!m) fail("NOT_FOUND", "Membership not found");
  await assertNotLastOwner(db, m.organization_id, m.user_id, m.role, null);
  await db.batch([
    deleteMembershipStatement(db, membershipId),
    auditStatement(ctx, {
      action: "member.remove",
      entityType: "user",
      entityId: m.user_id,
      before: m,
      organizationId: m.organization_id,
    }),
  ]);
  return { ok: true };
}
