/**
 * Invitations (DESIGN §4, decision 017): a public id (listed to members, used for resend and
 * revoke), the invitee's e-mail (lower-cased), a role, a 7-day expiry (app.config
 * organizations.invitationExpiresIn) and the accept secret: random, mailed in the link only,
 * stored as its SHA-256 and replaced on every resend. Shared by the organization's own "invite a
 * member" and the platform admin's "invite an organizer". Accepting lives in
 * worker/http/invitations.ts, which finds an invitation by `invitationSecretHash` of the link's id.
 */
import type { AppConfig } from "../../app.config";
import { generateId, randomString, sha256Hex } from "../auth/crypto";
import { getMailer, renderMail } from "../mail";
import { type AuditActor, auditStatement } from "./audit";

export interface InvitationInput {
  organizationId: string;
  organizationName: string;
  email: string;
  role: "owner" | "admin" | "organizer" | "viewer";
}

/** The link's secret (32 alphanumerics, about 190 bits) and the hash the row keeps. */
export function newInvitationSecret() {
  const secret = randomString(32);
  return { secret, hash: invitationSecretHash(secret) };
}

export const invitationSecretHash = (secret: string) => sha256Hex(secret);

/**
 * Replaces any open invitation of the same e-mail in the organization (so only the newest link
 * works), writes the audit row in the same batch, then mails the link. Refuses existing members.
 */
export async function createInvitation(
  actor: AuditActor & { user: { id: string; name?: string | null }; config: AppConfig },
  input: InvitationInput,
): Promise<{ id: string; expiresAt: number } | { alreadyMember: true }> {
  const db = actor.env.DB;
  const email = input.email.trim().toLowerCase();
  const existing = await db
    .prepare(
      "SELECT 1 FROM membership m JOIN user u ON u.id = m.user_id WHERE m.organization_id = ? AND lower(u.email) = ?",
    )
    .bind(input.organizationId, email)
    .first();
  if (existing) return { alreadyMember: true };
  const id = generateId();
  const { secret, hash } = newInvitationSecret();
  const now = Date.now();
  const expiresAt = now + actor.config.organizations.invitationExpiresIn * 1000;
  await db.batch([
    db
      .prepare(
        "UPDATE invitation SET revoked_at = ?, updated_at = ? WHERE organization_id = ? AND email = ? AND accepted_at IS NULL AND revoked_at IS NULL",
      )
      .bind(now, now, input.organizationId, email),
    db
      .prepare(
        "INSERT INTO invitation (id, organization_id, email, role, invited_by, expires_at, secret_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(id, input.organizationId, email, input.role, actor.user.id, expiresAt, hash, now, now),
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
export async function mailInvitation(
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
