/**
 * The session check behind the client auth state (SPEC §3/§4). One query, ['auth','session'],
 * fetched on the server during SSR (straight from the auth module) and in the browser through
 * GET /api/auth/get-session. A failed check counts as unauthenticated, with the error kept.
 *
 * It carries the access query's answer (`access.capabilities`, worker/access/): what the signed-in
 * user may do, decided by the server's own rule (core/permissions.ts, with the configured admin
 * ids the browser cannot see). Guards, the shell and `useCan` read it; the portal keeps no copy of
 * the roles (issue 19). It refreshes with the session (sign-in, impersonation) and whenever every
 * query is invalidated (switching organization, changing a member's role).
 */
import { queryOptions } from "@tanstack/react-query";
import { createIsomorphicFn } from "@tanstack/react-start";
import type { RouterOutputs } from "../api-types";
import { authApi } from "./api";
import type { SessionPayload } from "./types";

export type Capabilities = RouterOutputs["access"]["capabilities"];

export interface SessionSnapshot {
  payload: SessionPayload | null;
  /** What the signed-in user may do; null when signed out (or when the check failed). */
  capabilities: Capabilities | null;
  error: string | null;
}

export const SIGNED_OUT: SessionSnapshot = { payload: null, capabilities: null, error: null };

const readSession = createIsomorphicFn()
  .server(async (): Promise<SessionSnapshot> => {
    const server = await import("../../server/session");
    return { ...(await server.readServerAuth()), error: null };
  })
  .client(async (): Promise<SessionSnapshot> => {
    try {
      const payload = await authApi.getSession();
      const capabilities = payload ? await fetchCapabilities() : null;
      return { payload, capabilities, error: null };
    } catch (error) {
      return { ...SIGNED_OUT, error: error instanceof Error ? error.message : String(error) };
    }
  });

/**
 * SPEC §8: a failed membership check is logged and treated as no membership, so a failed access
 * check is treated as no access at all (the server refuses anyway).
 */
export async function fetchCapabilities(): Promise<Capabilities | null> {
  try {
    return await authApi.capabilities();
  } catch (error) {
    console.warn("Access check failed; treating as no access", error);
    return null;
  }
}

export const sessionQueryKey = ["auth", "session"] as const;

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: sessionQueryKey,
    queryFn: () => readSession(),
    // The session decides every guard; re-check it on mount of the app rather than trusting 5 min.
    staleTime: 30_000,
    retry: false,
  });
