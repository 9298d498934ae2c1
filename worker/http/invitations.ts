// Invitations (DESIGN §4, decisions 017, 044): the mailed link's secret is the capability. Accepting needs
// the invitee signed in, the address verified; the rules are worker/organization/invitations/service.ts.
import { getSessionFromRequest } from "../auth";
import { directoryDatabase } from "../db/databases";
import {
  answerInvitation,
  type InvitationRefusal,
  invitationForInvitee,
  viewInvitation,
} from "../organization/invitations/service";
import { json, methodNotAllowed } from "./headers";

const refused = (r: InvitationRefusal) => json({ code: r.code, message: r.message }, { status: r.status });

export async function handleInvitation(
  request: Request,
  env: Env,
  secret: string,
  action: "view" | "accept" | "decline",
): Promise<Response> {
  const method = action === "view" ? "GET" : "POST";
  if (request.method !== method) return methodNotAllowed([method]);
  const auth = await getSessionFromRequest(request, env, { fresh: true });
  const db = directoryDatabase(env);
  if (action === "view") {
    const found = await viewInvitation(db, secret, auth?.user ?? null);
    return "refused" in found ? refused(found.refused) : json(found.view);
  }
  if (!auth)
    return json({ code: "UNAUTHORIZED", message: "Sign in to accept this invitation" }, { status: 401 });
  const found = await invitationForInvitee(db, secret, auth.user);
  if ("refused" in found) return refused(found.refused);
  const answer = await answerInvitation(
    { env, user: auth.user, session: auth.session, ip: request.headers.get("cf-connecting-ip") },
    found.invitation,
    action,
  );
  if ("refused" in answer) return refused(answer.refused);
  return json(answer);
}
