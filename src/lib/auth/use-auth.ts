import { NO_PORTAL_ACCESS_MESSAGE } from "@core/permissions";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "@tanstack/react-router";
import { useCallback, useMemo } from "react";
import { ACCESS_CHECK_FAILED, ACCESS_CHECK_FAILED_MESSAGE, capabilitiesWithoutCheck } from "./access-check";
import { authApi } from "./api";
import { landingFor } from "./landing";
import { SIGNED_OUT, sessionQueryKey, sessionQueryOptions } from "./session";
import { AuthError, type AuthState } from "./types";

/**
 * The client auth state of SPEC §3 plus its actions. The session state refreshes after
 * sign-in, sign-up, sign-out, update-user, delete-user and verify-email (SPEC §4).
 */
export function useAuth() {
  const queryClient = useQueryClient();
  const router = useRouter();
  const query = useQuery(sessionQueryOptions());
  const snapshot = query.data;

  const state: AuthState = useMemo(() => {
    const user = snapshot?.payload?.user ?? null;
    return {
      isAuthenticated: !!user,
      isLoading: query.isPending,
      user,
      sessionChecked: !query.isPending,
      error: snapshot?.error ?? null,
      isImpersonating: !!snapshot?.payload?.session.impersonatedBy,
    };
  }, [snapshot, query.isPending]);

  const refresh = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    await router.invalidate();
  }, [queryClient, router]);

  /**
   * Where a signed-in session goes from here (decision 044): the destination when the user has
   * portal access or it is a page outside the portal (core/outside-portal.ts); /onboarding when
   * there is something for them there; otherwise SPEC §4 signs them out at once (UNAUTHORIZED).
   * A failed access check signs nobody out: admins and organizers go on by role, role user gets
   * ACCESS_CHECK_FAILED to retry (this same call, without the password).
   */
  const land = useCallback(
    async (destination?: string | null): Promise<string> => {
      let capabilities = await authApi.capabilities().catch(() => null);
      if (!capabilities) {
        const payload = await authApi.getSession().catch(() => null);
        if (!payload) throw new AuthError("SIGN_IN_ERROR", "Sign in failed");
        capabilities = capabilitiesWithoutCheck(payload.user, payload.session.impersonatedBy);
        if (!capabilities) throw new AuthError(ACCESS_CHECK_FAILED, ACCESS_CHECK_FAILED_MESSAGE);
      }
      const to = landingFor(capabilities, destination);
      if (!to) {
        // SPEC §4: no portal access and nothing outside it → signed out at once.
        await authApi.signOut().catch(() => undefined);
        queryClient.setQueryData(sessionQueryKey, SIGNED_OUT);
        throw new AuthError("UNAUTHORIZED", NO_PORTAL_ACCESS_MESSAGE, 403);
      }
      // Whatever the last user left cached belongs to them.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "auth" });
      await refresh();
      return to;
    },
    [queryClient, refresh],
  );

  /** SPEC §4's sign-in; answers where to go (`land`). */
  const signIn = useCallback(
    async (email: string, password: string, rememberMe = true, destination?: string | null) => {
      let result: Awaited<ReturnType<typeof authApi.signInEmail>>;
      try {
        result = await authApi.signInEmail({ email, password, rememberMe });
      } catch (error) {
        if (error instanceof AuthError) throw error;
        throw new AuthError("SIGN_IN_ERROR", "Sign in failed");
      }
      if (!result?.user) throw new AuthError("SIGN_IN_ERROR", "No user data received");
      return land(destination);
    },
    [land],
  );

  /** Signs out and goes to /login, or to `then` (the invitation's "switch account" comes back). */
  const signOut = useCallback(
    async (then?: { redirect: string }) => {
      await authApi.signOut().catch((error) => console.warn("sign-out failed", error));
      queryClient.clear();
      queryClient.setQueryData(sessionQueryKey, SIGNED_OUT);
      await router.navigate({ to: "/login", search: then ? { redirect: then.redirect } : {} });
    },
    [queryClient, router],
  );

  const impersonate = useCallback(
    async (userId: string, reason?: string) => {
      try {
        const res = await authApi.impersonateUser(userId, reason);
        if (!res?.user) throw new AuthError("IMPERSONATION_ERROR", "Impersonation failed");
      } catch (error) {
        if (error instanceof AuthError && error.code === "IMPERSONATION_ERROR") throw error;
        const detail = error instanceof AuthError ? error.message : undefined;
        throw new AuthError("IMPERSONATION_ERROR", detail ?? "Failed to start impersonation");
      }
      queryClient.clear();
      // The new session, then straight to /dashboard: re-running the current route's guards
      // (router.invalidate) would send the impersonated user from /users to
      // /dashboard?forbidden and its "That page is for platform admins." toast (issue 53, L1).
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      await router.navigate({ to: "/dashboard" });
    },
    [queryClient, router],
  );

  const stopImpersonating = useCallback(async () => {
    try {
      const res = await authApi.stopImpersonating();
      if (!res?.user) throw new AuthError("STOP_IMPERSONATION_ERROR", "Stop impersonation failed");
    } catch (error) {
      if (error instanceof AuthError && error.code === "STOP_IMPERSONATION_ERROR") throw error;
      throw new AuthError("STOP_IMPERSONATION_ERROR", "Failed to stop impersonation");
    }
    queryClient.clear();
    await refresh();
  }, [queryClient, refresh]);

  return {
    ...state,
    capabilities: snapshot?.capabilities ?? null,
    accessCheckFailed: !!snapshot?.accessCheckFailed,
    refresh,
    land,
    signIn,
    signOut,
    impersonate,
    stopImpersonating,
  };
}
