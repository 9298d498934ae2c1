/** Server-only: the auth state of the request being rendered, read straight from the auth module. */

import { env } from "cloudflare:workers";
import { getRequest } from "@tanstack/react-start/server";
import { callerCapabilities } from "../../worker/access/service";
import { getSessionFromRequest } from "../../worker/auth";
import { getConfig } from "../../worker/config";
import type { RouterOutputs } from "../lib/api-types";
import type { SessionPayload } from "../lib/auth/types";

export interface ServerAuth {
  payload: SessionPayload | null;
  capabilities: RouterOutputs["access"]["capabilities"] | null;
}

/**
 * The session and what its user may do: the answer GET /api/auth/get-session and the
 * `access.capabilities` query would give the browser, computed by the same service.
 */
export async function readServerAuth(): Promise<ServerAuth> {
  const found = await getSessionFromRequest(getRequest(), env).catch(() => null);
  if (!found) return { payload: null, capabilities: null };
  const capabilities = await callerCapabilities({
    env,
    config: getConfig(env),
    user: found.user,
    session: found.session,
  });
  // Plain JSON, exactly what GET /api/auth/get-session would have answered.
  return { payload: JSON.parse(JSON.stringify(found)) as SessionPayload, capabilities };
}
