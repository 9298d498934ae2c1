/**
 * Who may download an export: a signed-in user whose organization grants `export:create` and the
 * view right on what is exported, never an impersonated session. The decision is the org rung's
 * own (core/permissions.ts `refusal`, decision 017), so tRPC and HTTP exports cannot
 * differ. The answer is either the caller and their organization, or the spec-shaped 401/403.
 */
import { firstResource, type Permissions, refusal } from "@core/permissions";
import { getSessionFromRequest } from "../auth";
import { getConfig } from "../config";
import { primaryDirectory } from "../db/databases";
import { resolveOrganization } from "../trpc/org";
import { json } from "./headers";

export function exportAccess(request: Request, env: Env, view: Permissions) {
  return documentAccess(request, env, { export: ["create"], ...view });
}

/**
 * Who may download a document (a receipt or statement PDF, an export): signed in, fresh from D1,
 * holding `permissions` in their organization by the org rung's own decision.
 */
export async function documentAccess(request: Request, env: Env, permissions: Permissions) {
  // Read from D1, past the cookie cache: an export hands out the organization's data, so a
  // sign-out, ban or lost role must hold at once (decision 018).
  const auth = await getSessionFromRequest(request, env, { fresh: true });
  if (!auth) return json({ code: "UNAUTHORIZED", message: "Unauthorized" }, { status: 401 });
  const config = getConfig(env);
  const org = await resolveOrganization(primaryDirectory(env), auth.user, config);
  const refused = refusal(
    { userId: auth.user.id, role: auth.user.role, impersonatedBy: auth.session.impersonatedBy },
    permissions,
    { orgRole: org?.role ?? null },
    config.auth.adminUserIds,
  );
  if (refused || !org) {
    const message = refused ?? `You are not allowed to access resource: ${firstResource(permissions)}`;
    return json({ code: "FORBIDDEN", message }, { status: 403 });
  }
  return { user: auth.user, org };
}
