/**
 * Who may download an export: a signed-in user, not impersonating, whose organization grants
 * `export:create` and the view right on what is exported. The answer is either the caller and
 * their organization, or the spec-shaped 401/403 to send.
 */
import { hasOrgPermission, type Permissions } from "../access/permissions";
import { getSessionFromRequest } from "../auth";
import { getConfig } from "../config";
import { resolveOrganization } from "../trpc/org";
import { json } from "./headers";

export async function exportAccess(request: Request, env: Env, view: Permissions) {
  // Read from D1, past the cookie cache: an export hands out the organization's data, so a
  // sign-out, ban or lost role must hold at once (decision 018).
  const auth = await getSessionFromRequest(request, env, { fresh: true });
  if (!auth) return json({ code: "UNAUTHORIZED", message: "Unauthorized" }, { status: 401 });
  if (auth.session.impersonatedBy)
    return json(
      { code: "FORBIDDEN", message: "Exports are not available while impersonating" },
      { status: 403 },
    );
  const config = getConfig(env);
  const org = await resolveOrganization(env.DB, auth.user, config);
  if (
    !org ||
    !hasOrgPermission(
      { userId: auth.user.id, role: auth.user.role },
      org.role,
      { export: ["create"], ...view },
      config.auth.adminUserIds,
    )
  )
    return json(
      { code: "FORBIDDEN", message: "You are not allowed to access resource: export" },
      { status: 403 },
    );
  return { user: auth.user, org };
}
