/**
 * The session check behind the client auth state (SPEC §3/§4). One query, ['auth','session'],
 * fetched on the server during SSR (straight from the auth module) and in the browser through
 * GET /api/auth/get-session. A failed check counts as unauthenticated, with the error kept.
 */
import { queryOptions } from "@tanstack/react-query";
import { createIsomorphicFn } from "@tanstack/react-start";
import { needsMembershipCheck } from "./access";
import { authApi } from "./api";
import type { Membership, SessionPayload } from "./types";

export interface SessionSnapshot {
  payload: SessionPayload | null;
  /** Only looked up for plain users (SPEC §7: my-memberships is "only for role user"). */
  memberships: Membership[] | null;
  error: string | null;
}

const readSession = createIsomorphicFn()
  .server(async (): Promise<SessionSnapshot> => {
    const server = await import("../../server/session");
    const payload = await server.readServerSession();
    const memberships =
      payload && needsMembershipCheck(payload.user)
        ? await server.readServerMemberships(payload.user.id)
        : null;
    return { payload, memberships, error: null };
  })
  .client(async (): Promise<SessionSnapshot> => {
    try {
      const payload = await authApi.getSession();
      const memberships = payload && needsMembershipCheck(payload.user) ? await fetchMemberships() : null;
      return { payload, memberships, error: null };
    } catch (error) {
      return {
        payload: null,
        memberships: null,
        error: error instanceof Error ? error.message : String(error),
      };
    }
  });

/** SPEC §8: a failed membership check is logged and treated as no membership. */
export async function fetchMemberships(): Promise<Membership[]> {
  try {
    return (await authApi.myMemberships()).memberships ?? [];
  } catch (error) {
    console.warn("Membership check failed; treating as no membership", error);
    return [];
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
