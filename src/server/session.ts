/** Server-only: the auth state of the request being rendered, read straight from the auth module. */

import { env } from "cloudflare:workers";
import { getRequest } from "@tanstack/react-start/server";
import { callerCapabilities } from "../../worker/access/service";
import { getSessionFromRequest } from "../../worker/auth";
import { getConfig } from "../../worker/config";
import type { RouterOutputs } from "../lib/api-types";
import { capabilitiesWithoutCheck } from "../lib/auth/access-check";
import type { SessionPayload } from "../lib/auth/types";
import { pageCookies } from "./page-cookies";

interface ServerAuth {
  payload: SessionPayload | null;
  capabilities: RouterOutputs["access"]["capabilities"] | null;
  accessCheckFailed: boolean;
}

/**
 * The session and what its user may do: the answer GET /api/auth/get-session and the
 * `access.capabilities` query would give the browser, computed by the same service. A failed
 * access check is what the browser records for one (src/lib/auth/access-check.ts).
 */
export async function readServerAuth(): Promise<ServerAuth> {
  // Read as get-session reads it: a session due for it slides, its cookies on this page (spec audit 18).
  const found = await getSessionFromRequest(getRequest(), env, { cookies: pageCookies }).catch(() => null);
  if (!found) return { payload: null, capabilities: null, accessCheckFailed: false };
  // Plain JSON, exactly what GET /api/auth/get-session would have answered.
  const payload = JSON.parse(JSON.stringify(found)) as SessionPayload;
  try {
    const capabilities = await callerCapabilities({
      env,
      config: getConfig(env),
      user: found.user,
      session: found.session,
    });
    return { payload, capabilities, accessCheckFailed: false };
  } catch (error) {
    console.warn("Access check failed", error);
    return {
      payload,
      capabilities: capabilitiesWithoutCheck(found.user, found.session.impersonatedBy),
      accessCheckFailed: true,
    };
  }
}
