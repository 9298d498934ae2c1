// Exports and documents are decided by the org rung's own rule (core/permissions.ts `refusal`, decision 017),
// so tRPC and HTTP cannot differ; an export is never given to an impersonated session.
import { firstResource, type Permissions, refusal } from "@core/permissions";
import { getSessionFromRequest } from "../auth";
import { getConfig } from "../config";
import { primaryDirectory } from "../db/databases";
import { resolveOrganization } from "../trpc/org";
import { json } from "./headers";

export function exportAccess(request: Request, env: Env, view: Permissions) {
  return documentAccess(request, env, { export: ["create"], ...view });
}

export async function documentAccess(request: Request, env: Env, permissions: Permissions) {
  // Past the cookie cache: a download hands out data, so a sign-out or lost role holds now (decision 018).
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
