/**
 * Invitations (DESIGN §4, decision 017): GET /api/invitations/<secret> shows one to its invitee,
 * POST /api/invitations/<secret>/accept joins the organization, …/decline cancels it. The path
 * carries the mailed link's secret, found by its SHA-256; the public id finds nothing here.
 * Signed out → 401, unknown → 404, someone else's → 403, accepted → 409, expired → 410; accepting
 * or declining also needs the invited address verified (403 EMAIL_NOT_VERIFIED), so signing up
 * with someone's address is not enough to take their invitation. The rules are the invitation
 * service's (worker/organization/invitations/service.ts); this file speaks HTTP.
 */
import { getSessionFromRequest } from "../auth";
import { directoryDatabase } from "../db/databases";
import { presentInvitationView } from "../organization/invitations/present";
import {
  answerInvitation,
  type InvitationRefusal,
  invitationForInvitee,
} from "../organization/invitations/service";
import { json } from "./headers";

const refused = (r: InvitationRefusal) => json({ code: r.code, message: r.message }, { status: r.status });

export async function handleInvitation(
  request: Request,
  env: Env,
  secret: string,
  action: "view" | "accept" | "decline",
): Promise<Response> {
  const auth = await getSessionFromRequest(request, env, { fresh: true });
  if (!auth)
    return json({ code: "UNAUTHORIZED", message: "Sign in to accept this invitation" }, { status: 401 });
  const found = await invitationForInvitee(directoryDatabase(env), secret, auth.user);
  if ("refused" in found) return refused(found.refused);
  if (action === "view") return json(presentInvitationView(found.invitation, auth.user));
  if (request.method !== "POST")
    return json({ code: "METHOD_NOT_ALLOWED", message: "Method not allowed" }, { status: 405 });
  const answer = await answerInvitation(
    { env, user: auth.user, session: auth.session, ip: request.headers.get("cf-connecting-ip") },
    found.invitation,
    action,
  );
  if ("refused" in answer) return refused(answer.refused);
  return json(answer);
}
