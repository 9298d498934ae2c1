/**
 * The session check behind the client auth state (SPEC §3/§4). One query, ['auth','session'],
 * fetched on the server during SSR (straight from the auth module) and in the browser through
 * GET /api/auth/get-session. A failed check counts as unauthenticated, with the error kept.
 *
 * It carries the access query's answer (`access.capabilities`, worker/access/): what the signed-in
 * user may do, decided by the server's own rule (core/permissions.ts, with the configured admin
 * ids the browser cannot see), and whether that check failed (./access-check.ts). Guards, the
 * shell and `useCan` read it; the portal keeps no copy of the roles (issue 19). It refreshes with the session (sign-in, impersonation) and whenever every
 * query is invalidated (switching organization, changing a member's role).
 */
import { queryOptions } from "@tanstack/react-query";
import { createIsomorphicFn } from "@tanstack/react-start";
import type { RouterOutputs } from "../api-types";
import { capabilitiesWithoutCheck } from "./access-check";
import { authApi } from "./api";
import type { SessionPayload } from "./types";

export type Capabilities = RouterOutputs["access"]["capabilities"];

export interface SessionSnapshot {
  payload: SessionPayload | null;
  /**
   * What the signed-in user may do; null when signed out. When the check failed, what their
   * platform role alone grants (admin, organizer), else null (./access-check.ts).
   */
  capabilities: Capabilities | null;
  error: string | null;
  /** The access check failed (5xx, 429, network): not "no access" (decision 044). */
  accessCheckFailed: boolean;
}

export const SIGNED_OUT: SessionSnapshot = {
  payload: null,
  capabilities: null,
  error: null,
  accessCheckFailed: false,
};

const readSession = createIsomorphicFn()
  .server(async (): Promise<SessionSnapshot> => {
    const server = await import("../../server/session");
    return { ...(await server.readServerAuth()), error: null };
  })
  .client(async (): Promise<SessionSnapshot> => {
    let payload: SessionPayload | null;
    try {
      payload = await authApi.getSession();
    } catch (error) {
      // SPEC §4: a failed session check counts as unauthenticated.
      return { ...SIGNED_OUT, error: error instanceof Error ? error.message : String(error) };
    }
    if (!payload) return SIGNED_OUT;
    return { payload, ...(await checkAccess(payload)), error: null };
  });

/**
 * The access check for a signed-in user. SPEC §8 has the server treat a failed membership check as
 * no membership (the rungs refuse); the browser records the failure instead of reading it as "no
 * access", which used to sign admins out during a hiccup (decision 044).
 */
async function checkAccess(
  payload: SessionPayload,
): Promise<Pick<SessionSnapshot, "capabilities" | "accessCheckFailed">> {
  try {
    return { capabilities: await authApi.capabilities(), accessCheckFailed: false };
  } catch (error) {
    console.warn("Access check failed", error);
    return {
      capabilities: capabilitiesWithoutCheck(payload.user, payload.session.impersonatedBy),
      accessCheckFailed: true,
    };
  }
}

export const sessionQueryKey = ["auth", "session"] as const;

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: sessionQueryKey,
    queryFn: () => readSession(),
    // The session decides every guard; re-check it on mount of the app rather than trusting 5 min.
    staleTime: 30_000,
    // A failed access check is asked again soon, so a hiccup does not outlast itself.
    refetchInterval: (query) => (query.state.data?.accessCheckFailed ? 10_000 : false),
    retry: false,
  });
