/**
 * Invitations (DESIGN §4, decision 017): the accept secret is random, mailed in the link only, stored
 * as its SHA-256 and replaced on every resend. One service for the organization's invites, the
 * admin's organizer invites and the invitee's link (worker/http/invitations.ts).
 */

import type { BulkOutcome } from "@core/bulk";
import type { MemberInviteInput, MemberRole } from "@core/organization";
import type { AppConfig } from "../../../app.config";
import type { SessionRecord, UserRecord } from "../../auth";
import { sha256Hex } from "../../auth/crypto";
import { type Database, directoryDatabase } from "../../db/databases";
import { type AuditActor, auditStatement } from "../../lib/audit";
import { fail } from "../../lib/fail";
import { previousWriteLanded } from "../../lib/guard";
import { generateId, randomString } from "../../lib/ids";
import { getMailer, renderMail } from "../../mail";
import type { OrgCtx, OrgReader } from "../../trpc/init";
import { assertMayGrant } from "../members/service";
import { presentInvitationView, presentOpenInvitation } from "./present";
import {
  acceptStatement,
  declineStatement,
  type InvitationRow,
  insertInvitationStatement,
  invitationBySecretHash,
  invitationsByIds,
  isMemberByEmail,
  joinStatement,
  openInvitation,
  openInvitationsOf,
  openOnJoinedStatement,
  renewStatement,
  revokeOpenOfEmailStatement,
  revokeStatement,
} from "./queries";

/** The link's secret (32 alphanumerics, about 190 bits) and the hash the row keeps. */
function newInvitationSecret() {
  const secret = randomString(32);
  return { secret, hash: invitationSecretHash(secret) };
}

const invitationSecretHash = (secret: string) => sha256Hex(secret);

type Inviter = AuditActor & { user: { id: string; name?: string | null }; config: AppConfig };

/** Replaces any open invitation of the same e-mail, so only the newest link works; refuses members. */
export async function createInvitation(
  actor: Inviter,
  input: { organizationId: string; organizationName: string; email: string; role: MemberRole },
): Promise<{ id: string; expiresAt: number }> {
  const db = directoryDatabase(actor.env);
  const email = input.email.trim().toLowerCase();
  if (await isMemberByEmail(db, input.organizationId, email))
    fail("CONFLICT", "This person is already a member of the organization", { field: "email" });
  const id = generateId();
  const { secret, hash } = newInvitationSecret();
  const now = Date.now();
  const expiresAt = now + actor.config.organizations.invitationExpiresIn * 1000;
  await db.batch([
    revokeOpenOfEmailStatement(db, input.organizationId, email, now),
    insertInvitationStatement(
      db,
      {
        id,
        organization_id: input.organizationId,
        email,
        role: input.role,
        invited_by: actor.user.id,
        expires_at: expiresAt,
        secret_hash: hash,
      },
      now,
    ),
    auditStatement(actor, {
      action: "member.invite",
      entityType: "invitation",
      entityId: id,
      after: { email, role: input.role },
      organizationId: input.organizationId,
    }),
  ]);
  await mailInvitation(actor, { secret, email, role: input.role, organizationName: input.organizationName });
  return { id, expiresAt };
}

/** The link's `id` search parameter (SPEC §2's name) is the secret, never the public id. */
async function mailInvitation(
  actor: { env: Env; user: { name?: string | null }; config: AppConfig },
  inv: { secret: string; email: string; role: string; organizationName: string },
) {
  const url = `${actor.config.app.url}/accept-invitation?id=${encodeURIComponent(inv.secret)}`;
  await getMailer(actor.env).send(
    renderMail({
      to: inv.email,
      subject: `You're invited to ${inv.organizationName} on Almoner`,
      intro: `${actor.user.name ?? "An administrator"} invited you to join ${inv.organizationName} as ${inv.role}.`,
      action: { label: "Accept the invitation", url },
      outro:
        "The invitation expires in 7 days. Sign in (or create an account) with this e-mail address and verify it to accept.",
    }),
  );
}

/** The organization invites by e-mail; only owners (and platform admins) invite owners. */
export function inviteMember(ctx: OrgCtx, input: MemberInviteInput) {
  assertMayGrant(ctx.org, input.role);
  return createInvitation(ctx, {
    organizationId: ctx.org.id,
    organizationName: ctx.org.name,
    email: input.email,
    role: input.role,
  });
}

/** Open invitations of the caller's organization; the ids are public, the secrets never leave a mail. */
export async function listOpenInvitations(ctx: OrgReader) {
  const rows = await openInvitationsOf(directoryDatabase(ctx.env), ctx.org.id);
  const now = Date.now();
  return rows.map((r) => presentOpenInvitation(r, now));
}

/** Mails a new link (the old one stops working: decision 017) and restarts the expiry. */
export async function resendInvitation(ctx: OrgCtx, id: string) {
  const db = directoryDatabase(ctx.env);
  const now = Date.now();
  const expiresAt = now + ctx.config.organizations.invitationExpiresIn * 1000;
  const inv = await openInvitation(db, id, ctx.org.id);
  if (!inv) fail("NOT_FOUND", "Invitation not found");
  const { secret, hash } = newInvitationSecret();
  await db.batch([
    renewStatement(db, inv.id, expiresAt, hash, now),
    auditStatement(ctx, {
      action: "member.resend_invitation",
      entityType: "invitation",
      entityId: inv.id,
      before: { expiresAt: inv.expires_at },
      after: { expiresAt },
    }),
  ]);
  await mailInvitation(ctx, { secret, email: inv.email, role: inv.role, organizationName: ctx.org.name });
  return { id: inv.id, expiresAt };
}

type RevocableRow = Pick<
  InvitationRow,
  "id" | "organization_id" | "email" | "role" | "accepted_at" | "revoked_at"
>;

/** Why an invitation cannot be revoked (null: it can); past its expiry it is still open. */
export function revokeRefusal(inv: Pick<InvitationRow, "accepted_at" | "revoked_at">): string | null {
  if (inv.revoked_at) return "Already revoked";
  if (inv.accepted_at) return "Not an open invitation";
  return null;
}

/** The revoke, conditional on the invitation still open, and its audit row if it landed (decision 020). */
function revokeStatements(actor: AuditActor, inv: RevocableRow, reason: string | undefined, now: number) {
  const db = directoryDatabase(actor.env);
  return [
    revokeStatement(db, inv.id, now),
    auditStatement(
      actor,
      {
        action: "member.revoke_invitation",
        entityType: "invitation",
        entityId: inv.id,
        before: { id: inv.id, organization_id: inv.organization_id, email: inv.email, role: inv.role },
        reason,
        organizationId: inv.organization_id,
      },
      previousWriteLanded,
    ),
  ];
}

/** Revokes an open invitation of `organizationId` (another tenant's is NOT_FOUND), or any when null. */
export async function revokeInvitation(
  actor: AuditActor,
  input: { id: string; organizationId: string | null; reason?: string },
) {
  const db = directoryDatabase(actor.env);
  const [inv] = await invitationsByIds(db, [input.id], input.organizationId);
  if (!inv || revokeRefusal(inv)) fail("NOT_FOUND", "Invitation not found");
  const [r] = await db.batch(revokeStatements(actor, inv, input.reason, Date.now()));
  if (!r?.meta.changes) fail("NOT_FOUND", "Invitation not found");
  return { id: inv.id };
}

/** A bulk revoke (decision 024): each id decided by `revokeRefusal`, those that pass in ONE batch. */
export async function bulkRevokeInvitations(
  actor: AuditActor,
  input: { ids: string[]; organizationId: string | null; reason?: string },
): Promise<BulkOutcome[]> {
  const db = directoryDatabase(actor.env);
  const rows = new Map((await invitationsByIds(db, input.ids, input.organizationId)).map((r) => [r.id, r]));
  const outcomes = new Map<string, BulkOutcome>();
  const planned: RevocableRow[] = [];
  for (const id of input.ids) {
    const inv = rows.get(id);
    const refusal = inv ? revokeRefusal(inv) : "Not found";
    if (refusal || !inv) outcomes.set(id, { id, changed: false, reason: refusal ?? "Not found" });
    else planned.push(inv);
  }
  const now = Date.now();
  const res = planned.length
    ? await db.batch(planned.flatMap((inv) => revokeStatements(actor, inv, input.reason, now)))
    : [];
  planned.forEach((inv, i) => {
    outcomes.set(
      inv.id,
      res[2 * i]?.meta.changes
        ? { id: inv.id, changed: true }
        : { id: inv.id, changed: false, reason: "The invitation changed meanwhile" },
    );
  });
  return input.ids.map((id) => outcomes.get(id) as BulkOutcome);
}

/** Why the invitee's link does not go through: the HTTP status, a code and the sentence to show. */
export interface InvitationRefusal {
  status: 403 | 404 | 409 | 410;
  code: string;
  message: string;
}

type Found = NonNullable<Awaited<ReturnType<typeof invitationBySecretHash>>>;

const UNKNOWN_LINK: InvitationRefusal = {
  status: 404,
  code: "NOT_FOUND",
  message:
    "This invitation link does not work: it may have been replaced by a newer one. Open the newest invitation e-mail, or ask for a new one.",
};

/** What a link's secret opens, before sign-in too: the secret is the capability (decision 044). */
export async function viewInvitation(
  db: Database,
  secret: string,
  user: Pick<UserRecord, "id" | "email" | "emailVerified"> | null,
): Promise<{ view: ReturnType<typeof presentInvitationView> } | { refused: InvitationRefusal }> {
  const inv = await invitationBySecretHash(db, invitationSecretHash(secret), user?.id ?? null);
  if (!inv) return { refused: UNKNOWN_LINK };
  return { view: presentInvitationView(inv, user, Date.now()) };
}

/** The invitation a link's secret names, if it is the signed-in user's to answer, else the refusal. */
export async function invitationForInvitee(
  db: Database,
  secret: string,
  user: Pick<UserRecord, "id" | "email">,
): Promise<{ invitation: Found } | { refused: InvitationRefusal }> {
  const inv = await invitationBySecretHash(db, invitationSecretHash(secret), user.id);
  if (!inv || inv.revoked_at)
    return { refused: { status: 404, code: "NOT_FOUND", message: "Invitation not found" } };
  if (inv.email !== user.email.toLowerCase())
    return {
      refused: {
        status: 403,
        code: "FORBIDDEN",
        message: `This invitation was sent to ${inv.email}. Sign in with that address to accept it.`,
      },
    };
  if (inv.accepted_at)
    return {
      refused: { status: 409, code: "CONFLICT", message: "This invitation has already been accepted" },
    };
  if (inv.expires_at <= Date.now())
    return {
      refused: { status: 410, code: "GONE", message: "This invitation has expired. Ask for a new one." },
    };
  return { invitation: inv };
}

const alreadyMember = (inv: Pick<Found, "organization_name">, role: string): InvitationRefusal => ({
  status: 409,
  code: "ALREADY_MEMBER",
  message: `You are already a member of ${inv.organization_name} (${role}): this invitation changes nothing.`,
});

/**
 * Accepts or declines, audited in the batch. Both need the address verified (signing up with someone's
 * address is not enough) and the link still open (queries.ts STILL_OPEN); an accept, no membership.
 */
export async function answerInvitation(
  actor: { env: Env; user: UserRecord; session: SessionRecord; ip: string | null },
  inv: Found,
  answer: "accept" | "decline",
): Promise<{ accepted: true; organizationId: string } | { declined: true } | { refused: InvitationRefusal }> {
  if (!actor.user.emailVerified)
    return {
      refused: {
        status: 403,
        code: "EMAIL_NOT_VERIFIED",
        message: `Verify your e-mail address (${inv.email}) before ${answer === "accept" ? "accepting" : "declining"} this invitation: open the link we mailed you, or send a new one.`,
      },
    };
  const db = directoryDatabase(actor.env);
  const hash = inv.secret_hash;
  const now = Date.now();
  const who = {
    env: actor.env,
    user: actor.user,
    impersonatorId: actor.session.impersonatedBy,
    ip: actor.ip,
  };
  if (answer === "decline") {
    await db.batch([
      declineStatement(db, hash, now),
      auditStatement(
        who,
        {
          action: "member.decline_invitation",
          entityType: "invitation",
          entityId: inv.id,
          before: { email: inv.email, role: inv.role },
          organizationId: inv.organization_id,
        },
        previousWriteLanded,
      ),
    ]);
    return { declined: true };
  }
  if (inv.member_role) return { refused: alreadyMember(inv, inv.member_role) };
  const membershipId = generateId();
  const res = await db.batch([
    acceptStatement(db, hash, actor.user.id, now),
    joinStatement(
      db,
      { id: membershipId, organizationId: inv.organization_id, userId: actor.user.id, role: inv.role },
      now,
    ),
    auditStatement(
      who,
      {
        action: "member.accept_invitation",
        entityType: "user",
        entityId: actor.user.id,
        after: { invitationId: inv.id, role: inv.role },
        organizationId: inv.organization_id,
      },
      previousWriteLanded,
    ),
    openOnJoinedStatement(db, actor.user.id, membershipId),
  ]);
  if (!res[0]?.meta.changes) {
    // Lost to a membership given meanwhile (the Members page, another invitation) or another accept.
    const current = await invitationBySecretHash(db, hash, actor.user.id);
    if (current?.member_role && !current.accepted_at)
      return { refused: alreadyMember(inv, current.member_role) };
    return {
      refused: { status: 409, code: "CONFLICT", message: "This invitation has already been accepted" },
    };
  }
  return { accepted: true, organizationId: inv.organization_id };
}
