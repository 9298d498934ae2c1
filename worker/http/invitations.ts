/**
 * Invitations (DESIGN §4, decision 017): GET /api/invitations/<secret> shows one to its invitee,
 * POST /api/invitations/<secret>/accept joins the organization, …/decline cancels it. The path
 * carries the mailed link's secret, found by its SHA-256; the public id finds nothing here.
 * Signed out → 401, unknown → 404, someone else's → 403, accepted → 409, expired → 410; accepting
 * or declining also needs the invited address verified (403 EMAIL_NOT_VERIFIED), so signing up
 * with someone's address is not enough to take their invitation.
 */
import { getSessionFromRequest } from "../auth";
import { generateId } from "../auth/crypto";
import { invitationSecretHash } from "../lib/invitations";
import { json } from "./headers";

interface InvitationRow {
  id: string;
  organization_id: string;
  organization_name: string;
  email: string;
  role: string;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

export async function handleInvitation(
  request: Request,
  env: Env,
  secret: string,
  action: "view" | "accept" | "decline",
): Promise<Response> {
  const auth = await getSessionFromRequest(request, env, { fresh: true });
  if (!auth)
    return json({ code: "UNAUTHORIZED", message: "Sign in to accept this invitation" }, { status: 401 });
  const hash = invitationSecretHash(secret);
  const inv = await env.DB.prepare(
    "SELECT i.*, o.name AS organization_name FROM invitation i JOIN organization o ON o.id = i.organization_id WHERE i.secret_hash = ?",
  )
    .bind(hash)
    .first<InvitationRow>();
  if (!inv || inv.revoked_at)
    return json({ code: "NOT_FOUND", message: "Invitation not found" }, { status: 404 });
  if (inv.email !== auth.user.email.toLowerCase()) {
    return json(
      {
        code: "FORBIDDEN",
        message: `This invitation was sent to ${inv.email}. Sign in with that address to accept it.`,
      },
      { status: 403 },
    );
  }
  if (inv.accepted_at)
    return json({ code: "CONFLICT", message: "This invitation has already been accepted" }, { status: 409 });
  if (inv.expires_at <= Date.now())
    return json(
      { code: "GONE", message: "This invitation has expired. Ask for a new one." },
      { status: 410 },
    );
  if (action === "view") {
    return json({
      id: inv.id,
      organizationName: inv.organization_name,
      role: inv.role,
      email: inv.email,
      expiresAt: inv.expires_at,
      // The page offers the verification mail first when this is false.
      emailVerified: auth.user.emailVerified,
    });
  }
  if (request.method !== "POST")
    return json({ code: "METHOD_NOT_ALLOWED", message: "Method not allowed" }, { status: 405 });
  if (!auth.user.emailVerified)
    return json(
      {
        code: "EMAIL_NOT_VERIFIED",
        message: `Verify your e-mail address (${inv.email}) before ${action === "accept" ? "accepting" : "declining"} this invitation: open the link we mailed you, or send a new one.`,
      },
      { status: 403 },
    );
  const now = Date.now();
  // Conditional on the secret still being this invitation's and the invitation still open: a
  // resend, revoke or accept that lands between the read above and this write wins.
  const stillOpen = "secret_hash = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?";
  if (action === "decline") {
    await env.DB.prepare(`UPDATE invitation SET revoked_at = ?, updated_at = ? WHERE ${stillOpen}`)
      .bind(now, now, hash, now)
      .run();
    return json({ declined: true });
  }
  const res = await env.DB.batch([
    env.DB.prepare(`UPDATE invitation SET accepted_at = ?, updated_at = ? WHERE ${stillOpen}`).bind(
      now,
      now,
      hash,
      now,
    ),
    env.DB.prepare(
      `INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at) SELECT ?, ?, ?, ?, ?, ?
          WHERE changes() = 1 ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at`,
    ).bind(generateId(), inv.organization_id, auth.user.id, inv.role, now, now),
    env.DB.prepare(
      "INSERT INTO audit_event (id, organization_id, actor_id, action, entity_type, entity_id, after, at) VALUES (?, ?, ?, 'member.accept_invitation', 'user', ?, ?, ?)",
    ).bind(
      generateId(),
      inv.organization_id,
      auth.user.id,
      auth.user.id,
      JSON.stringify({ invitationId: inv.id, role: inv.role }),
      now,
    ),
  ]);
  if (!res[0]?.meta.changes)
    return json({ code: "CONFLICT", message: "This invitation has already been accepted" }, { status: 409 });
  return json({ accepted: true, organizationId: inv.organization_id });
}
