/**
 * The portal's auth calls (SPEC §7), a thin fetch client over /api/auth. Errors come back as
 * AuthError with the server's {code, message}; network failures keep their TypeError.
 */
import type { RouterOutputs } from "../api-types";
import { AuthError, type SessionPayload, type SignedInUser } from "./types";

export const AUTH_BASE = "/api/auth";
export const ADMIN_AUTH_BASE = "/api/auth/admin";

async function call<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  const res = await fetch(path, {
    credentials: "include",
    ...rest,
    method: rest.method ?? (json === undefined ? "GET" : "POST"),
    headers: { ...(json === undefined ? {} : { "content-type": "application/json" }), ...rest.headers },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  const text = await res.text();
  const data = text ? safeJson(text) : null;
  if (!res.ok) {
    const body = (data ?? {}) as { code?: string; message?: string };
    throw new AuthError(body.code ?? `HTTP_${res.status}`, body.message ?? res.statusText, res.status);
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const authApi = {
  getSession: (opts: { disableCookieCache?: boolean } = {}) =>
    call<SessionPayload | null>(
      `${AUTH_BASE}/get-session${opts.disableCookieCache ? "?disableCookieCache=true" : ""}`,
    ),
  signInEmail: (body: { email: string; password: string; rememberMe?: boolean }) =>
    call<{ redirect: boolean; token: string; url?: string; user: SignedInUser }>(
      `${ADMIN_AUTH_BASE}/sign-in/email`,
      { json: body },
    ),
  signUpEmail: (body: { name: string; email: string; password: string; callbackURL?: string }) =>
    call<{ token: string | null; user: SignedInUser }>(`${AUTH_BASE}/sign-up/email`, {
      json: body,
    }),
  signOut: () => call<{ success: boolean }>(`${ADMIN_AUTH_BASE}/sign-out`, { json: {} }),
  impersonateUser: (userId: string, reason?: string) =>
    call<{ session: SessionPayload["session"]; user: SessionPayload["user"] }>(
      `${ADMIN_AUTH_BASE}/impersonate-user`,
      { json: { userId, reason } },
    ),
  stopImpersonating: () =>
    call<{ session: SessionPayload["session"]; user: SessionPayload["user"] }>(
      `${ADMIN_AUTH_BASE}/stop-impersonating`,
      { json: {} },
    ),
  /**
   * `access.capabilities` over plain HTTP GET (a tRPC query without input; its answer holds only
   * JSON values, so superjson's envelope is just `json`): the sign-in pages check portal access
   * without downloading the tRPC client (src/lib/trpc.ts).
   */
  capabilities: async () =>
    (
      await call<{ result: { data: { json: RouterOutputs["access"]["capabilities"] } } }>(
        "/api/trpc/access.capabilities",
      )
    ).result.data.json,
  /** `onboarding.policy` (public), the same way: what comes after sign-up, and whom to write to. */
  onboardingPolicy: async () =>
    (
      await call<{ result: { data: { json: RouterOutputs["onboarding"]["policy"] } } }>(
        "/api/trpc/onboarding.policy",
      )
    ).result.data.json,
  requestPasswordReset: (email: string, redirectTo: string) =>
    call<{ status: boolean }>(`${AUTH_BASE}/request-password-reset`, { json: { email, redirectTo } }),
  resetPassword: (newPassword: string, token: string) =>
    call<{ status: boolean }>(`${AUTH_BASE}/reset-password`, { json: { newPassword, token } }),
  sendVerificationEmail: (email: string, callbackURL?: string) =>
    call<{ status: boolean }>(`${AUTH_BASE}/send-verification-email`, { json: { email, callbackURL } }),
  updateUser: (body: { name?: string; image?: string | null }) =>
    call<{ status: boolean }>(`${AUTH_BASE}/update-user`, { json: body }),
  changePassword: (body: { currentPassword: string; newPassword: string; revokeOtherSessions?: boolean }) =>
    call<{ token: string | null }>(`${AUTH_BASE}/change-password`, { json: body }),
  changeEmail: (newEmail: string, callbackURL?: string) =>
    call<{ status: boolean }>(`${AUTH_BASE}/change-email`, { json: { newEmail, callbackURL } }),
  listSessions: () => call<SessionPayload["session"][]>(`${AUTH_BASE}/list-sessions`),
  revokeSession: (token: string) =>
    call<{ status: boolean }>(`${AUTH_BASE}/revoke-session`, { json: { token } }),
  revokeOtherSessions: () => call<{ status: boolean }>(`${AUTH_BASE}/revoke-other-sessions`, { json: {} }),
  deleteUser: (body: { password?: string; callbackURL?: string }) =>
    call<{ success: boolean; message: string }>(`${AUTH_BASE}/delete-user`, { json: body }),
  admin: {
    listUsers: (q: Record<string, string | number | undefined>) =>
      call<{
        users: (SessionPayload["user"] & { banReason: string | null; banExpires: string | null })[];
        total: number;
        limit: number;
        offset: number;
      }>(
        `${AUTH_BASE}/admin/list-users?${new URLSearchParams(
          Object.entries(q)
            .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== "")
            .map(([k, v]) => [k, String(v)]),
        )}`,
      ),
    getUser: (id: string) =>
      call<SessionPayload["user"] & { banReason: string | null }>(
        `${AUTH_BASE}/admin/get-user?id=${encodeURIComponent(id)}`,
      ),
    createUser: (body: { email: string; password?: string; name: string; role?: string }) =>
      call<{ user: SessionPayload["user"] }>(`${AUTH_BASE}/admin/create-user`, { json: body }),
    setRole: (userId: string, role: string) =>
      call<{ user: SessionPayload["user"] }>(`${AUTH_BASE}/admin/set-role`, { json: { userId, role } }),
    banUser: (userId: string, banReason?: string, banExpiresIn?: number) =>
      call<{ user: SessionPayload["user"] }>(`${AUTH_BASE}/admin/ban-user`, {
        json: { userId, banReason, banExpiresIn },
      }),
    unbanUser: (userId: string) =>
      call<{ user: SessionPayload["user"] }>(`${AUTH_BASE}/admin/unban-user`, { json: { userId } }),
    listUserSessions: (userId: string) =>
      call<{ sessions: SessionPayload["session"][] }>(`${AUTH_BASE}/admin/list-user-sessions`, {
        json: { userId },
      }),
    revokeUserSessions: (userId: string) =>
      call<{ success: boolean }>(`${AUTH_BASE}/admin/revoke-user-sessions`, { json: { userId } }),
    removeUser: (userId: string) =>
      call<{ success: boolean }>(`${AUTH_BASE}/admin/remove-user`, { json: { userId } }),
    setUserPassword: (userId: string, newPassword: string) =>
      call<{ status: boolean }>(`${AUTH_BASE}/admin/set-user-password`, { json: { userId, newPassword } }),
  },
  listAccounts: () =>
    call<{ id: string; providerId: string; accountId: string; scopes: string[]; createdAt: string }[]>(
      `${AUTH_BASE}/list-accounts`,
    ),
};
