import { NO_PORTAL_ACCESS_MESSAGE } from "@core/permissions";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "@tanstack/react-router";
import { useCallback, useMemo } from "react";
import { authApi } from "./api";
import { fetchCapabilities, SIGNED_OUT, sessionQueryKey, sessionQueryOptions } from "./session";
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

  const signIn = useCallback(
    async (email: string, password: string, rememberMe = true) => {
      let result: Awaited<ReturnType<typeof authApi.signInEmail>>;
      try {
        result = await authApi.signInEmail({ email, password, rememberMe });
      } catch (error) {
        if (error instanceof AuthError) throw error;
        throw new AuthError("SIGN_IN_ERROR", "Sign in failed");
      }
      if (!result?.user) throw new AuthError("SIGN_IN_ERROR", "No user data received");
      const capabilities = await fetchCapabilities();
      if (!capabilities?.portalAccess) {
        // SPEC §4: no portal access → signed out at once.
        await authApi.signOut().catch(() => undefined);
        queryClient.setQueryData(sessionQueryKey, SIGNED_OUT);
        throw new AuthError("UNAUTHORIZED", NO_PORTAL_ACCESS_MESSAGE, 403);
      }
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "auth" });
      await refresh();
      return result.user;
    },
    [queryClient, refresh],
  );

  const signOut = useCallback(async () => {
    await authApi.signOut().catch((error) => console.warn("sign-out failed", error));
    queryClient.clear();
    queryClient.setQueryData(sessionQueryKey, SIGNED_OUT);
    await router.navigate({ to: "/login" });
  }, [queryClient, router]);

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
      await refresh();
      await router.navigate({ to: "/dashboard" });
    },
    [queryClient, refresh, router],
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
    refresh,
    signIn,
    signOut,
    impersonate,
    stopImpersonating,
  };
}
