/**
 * Invitations (DESIGN §4): an unguessable id, the invitee's e-mail (lower-cased), a role and a
 * 7-day expiry (app.config organizations.invitationExpiresIn). Shared by the organization's own
 * "invite a member" and the platform admin's "invite an organizer". Accepting lives in
 * worker/http/invitations.ts.
 */
import type { AppConfig } from "../../app.config";
import { generateId } from "../auth/crypto";
import { getMailer, renderMail } from "../mail";
import { type AuditActor, auditStatement } from "./audit";

export interface InvitationInput {
  organizationId: string;
  organizationName: string;
  email: string;
  role: "owner" | "admin" | "organizer" | "viewer";
}

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
        "INSERT INTO invitation (id, organization_id, email, role, invited_by, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(id, input.organizationId, email, input.role, actor.user.id, expiresAt, now, now),
    auditStatement(actor, {
      action: "member.invite",
      entityType: "invitation",
      entityId: id,
      after: { email, role: input.role },
      organizationId: input.organizationId,
    }),
  ]);
  await mailInvitation(actor, { id, email, role: input.role, organizationName: input.organizationName });
  return { id, expiresAt };
}

export async function mailInvitation(
  actor: { env: Env; user: { name?: string | null }; config: AppConfig },
  inv: { id: string; email: string; role: string; organizationName: string },
) {
  const url = `${actor.config.app.url}/accept-invitation?id=${encodeURIComponent(inv.id)}`;
  await getMailer(actor.env).send(
    renderMail({
      to: inv.email,
      subject: `You're invited to ${inv.organizationName} on Almoner`,
      intro: `${actor.user.name ?? "An administrator"} invited you to join ${inv.organizationName} as ${inv.role}.`,
      action: { label: "Accept the invitation", url },
      outro:
        "The invitation expires in 7 days. Sign in (or create an account) with this e-mail address to accept it.",
    }),
  );
}
