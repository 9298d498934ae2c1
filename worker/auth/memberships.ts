import { primaryDirectory } from "../db/databases";
import { json, methodNotAllowed } from "../http/headers";
import { getSessionFromRequest } from "./index";

/** GET /api/organizations/my-memberships (SPEC §7): the caller's memberships, 401 when signed out. */
export async function handleMyMemberships(request: Request, env: Env): Promise<Response> {
  if (request.method !== "GET") return methodNotAllowed(["GET"]);
  const auth = await getSessionFromRequest(request, env);
  if (!auth) return json({ code: "UNAUTHORIZED", message: "Unauthorized" }, { status: 401 });
  const { results } = await primaryDirectory(env)
    .prepare(
      `SELECT m.id, m.organization_id AS organizationId, o.name AS organizationName, o.slug AS organizationSlug, m.role
       FROM membership m JOIN organization o ON o.id = m.organization_id
      WHERE m.user_id = ? ORDER BY o.name`,
    )
    .bind(auth.user.id)
    .all();
  return json({ memberships: results }, { headers: { "cache-control": "no-store" } });
}
