/**
 * /api/auth: the better-auth 1.3 wire contract on D1 (DESIGN §2). The same handlers answer under
 * the admin-auth base /api/auth/admin (SPEC §7), so a client with either base works.
 */
import { getConfig } from "../config";
import * as admin from "./admin";
import {
  AuthContext,
  loadSession,
  type SessionRecord,
  sessionAnswerJson,
  sessionFromMemory,
  type UserRecord,
} from "./core";
import * as ep from "./endpoints";
import { AuthApiError, errorResponse } from "./errors";
import { checkOrigin, countedWithinGeneralLimit, rateLimit } from "./guards";
import { socialRoutes } from "./social";

export { setPassword } from "./endpoints";

import { serverAccessToken } from "./social/routes";

export type { SessionRecord, UserRecord };

type Route = { method: "GET" | "POST" | "GET|POST"; handler: ep.Handler };

const core: Record<string, Route> = {
  "/sign-up/email": { method: "POST", handler: ep.signUpEmail },
  "/sign-in/email": { method: "POST", handler: ep.signInEmail },
  "/get-session": { method: "GET", handler: ep.getSession },
  "/sign-out": { method: "POST", handler: ep.signOut },
  "/list-sessions": { method: "GET", handler: ep.listSessions },
  "/revoke-session": { method: "POST", handler: ep.revokeSession },
  "/revoke-sessions": { method: "POST", handler: ep.revokeSessions },
  "/revoke-other-sessions": { method: "POST", handler: ep.revokeOtherSessions },
  "/update-user": { method: "POST", handler: ep.updateUser },
  "/change-password": { method: "POST", handler: ep.changePassword },
  "/send-verification-email": { method: "POST", handler: ep.sendVerificationEmail },
  "/verify-email": { method: "GET", handler: ep.verifyEmail },
  "/request-password-reset": { method: "POST", handler: ep.requestPasswordReset },
  "/forget-password": { method: "POST", handler: ep.forgetPassword },
  "/reset-password": { method: "POST", handler: ep.resetPassword },
  "/change-email": { method: "POST", handler: ep.changeEmail },
  "/delete-user": { method: "POST", handler: ep.deleteUser },
  "/delete-user/callback": { method: "GET", handler: ep.deleteUserCallback },
  "/list-accounts": { method: "GET", handler: ep.listAccounts },
  "/unlink-account": { method: "POST", handler: ep.unlinkAccount },
  "/error": { method: "GET", handler: ep.errorPage },
  "/ok": { method: "GET", handler: ep.okEndpoint },
};

/** The admin plugin's endpoints, relative to /api/auth/admin. */
const adminRoutes: Record<string, Route> = {
  "/list-users": { method: "GET", handler: admin.listUsers },
  "/get-user": { method: "GET", handler: admin.getUser },
  "/create-user": { method: "POST", handler: admin.createUser },
  "/update-user": { method: "POST", handler: admin.adminUpdateUser },
  "/set-role": { method: "POST", handler: admin.setRole },
  "/ban-user": { method: "POST", handler: admin.banUser },
  "/unban-user": { method: "POST", handler: admin.unbanUser },
  "/list-user-sessions": { method: "POST", handler: admin.listUserSessions },
  "/revoke-user-session": { method: "POST", handler: admin.revokeUserSession },
  "/revoke-user-sessions": { method: "POST", handler: admin.revokeUserSessions },
  "/remove-user": { method: "POST", handler: admin.removeUser },
  "/set-user-password": { method: "POST", handler: admin.setUserPassword },
  "/has-permission": { method: "POST", handler: admin.hasPermissionEndpoint },
  "/impersonate-user": { method: "POST", handler: admin.impersonateUser },
  "/stop-impersonating": { method: "POST", handler: admin.stopImpersonating },
};

/** Extra routes mounted by other modules (social sign-in). */
export const extraRoutes: Record<string, Route> = { ...socialRoutes };

function resolve(path: string): { route: Route | null; rateKey: string; param?: string } {
  const reset = /^\/reset-password\/([^/]+)$/.exec(path);
  if (reset)
    return {
      route: { method: "GET", handler: ep.resetPasswordLink(reset[1] as string) },
      rateKey: "/reset-password",
    };
  if (core[path]) return { route: core[path], rateKey: path };
  if (extraRoutes[path]) return { route: extraRoutes[path], rateKey: path };
  const cb = /^\/callback\/([^/]+)$/.exec(path);
  if (cb && extraRoutes["/callback/:id"])
    return { route: extraRoutes["/callback/:id"], rateKey: "/callback", param: cb[1] };
  if (path.startsWith("/admin/")) {
    const rest = path.slice("/admin".length);
    // /api/auth/admin/<admin endpoint> — both bases reach the plugin here.
    if (adminRoutes[rest]) return { route: adminRoutes[rest], rateKey: path };
    // /api/auth/admin/<core endpoint> — the spec's admin-auth base.
    if (core[rest]) return { route: core[rest], rateKey: rest };
    // /api/auth/admin/admin/<admin endpoint> — admin plugin under the admin-auth base.
    if (rest.startsWith("/admin/") && adminRoutes[rest.slice("/admin".length)]) {
      return { route: adminRoutes[rest.slice("/admin".length)] as Route, rateKey: rest };
    }
  }
  return { route: null, rateKey: path };
}

/** Test hook: a clock for expiry tests (never set in production). */
let clock: (() => number) | null = null;
export function __setAuthClock(fn: (() => number) | null) {
  clock = fn;
}

export async function handleAuthRequest(
  request: Request,
  env: Env,
  _ctx: ExecutionContext,
  url = new URL(request.url),
): Promise<Response> {
  // One trailing slash names the same endpoint, as better-auth 1.3.34's router (rou3) reads it.
  const path = url.pathname.slice("/api/auth".length).replace(/(.)\/$/, "$1") || "/";
  const ctx = new AuthContext(request, env, clock ?? Date.now, url);
  const { route, rateKey } = resolve(path);
  try {
    if (!route || path.endsWith("/") || path.includes("//")) return new Response(null, { status: 404 });
    const allowed = route.method.split("|");
    if (!allowed.includes(request.method)) {
      return errorResponse(new AuthApiError(405, "METHOD_NOT_ALLOWED", "Method not allowed"), ctx.headers);
    }
    checkOrigin(ctx);
    await rateLimit(ctx, rateKey);
    return await route.handler(ctx);
  } catch (error) {
    if (error instanceof AuthApiError) {
      if (error.status >= 500) console.error("auth error", error);
      return errorResponse(error, ctx.headers);
    }
    console.error("auth handler failed", path, error);
    return errorResponse(
      new AuthApiError(500, "INTERNAL_SERVER_ERROR", "Internal Server Error"),
      ctx.headers,
    );
  }
}

/** The headers of every get-session answer (ep.getSession sets the same). */
export { SESSION_ANSWER_HEADERS } from "./endpoints";

/**
 * get-session's answer when this isolate can give it from memory alone (decision 041): a plain
 * GET (no query string) whose session token and cookie cache were both verified here before,
 * the cache current, and the caller within its rate limit. Nothing is awaited, nothing is read
 * from a store and no cookie is written, so the front door answers it without opening the
 * request's log and D1 scopes. The answer's body, the same bytes ep.getSession would send; null
 * when anything more is needed, and handleAuthRequest answers.
 */
export function sessionCheckFromMemory(request: Request, env: Env): string | null {
  try {
    const ctx = new AuthContext(request, env, clock ?? Date.now);
    const loaded = sessionFromMemory(ctx);
    if (!loaded || !countedWithinGeneralLimit(ctx, "/get-session")) return null;
    return sessionAnswerJson(loaded);
  } catch {
    // A malformed cookie, a missing secret: the full path answers it, in the contract's shape.
    return null;
  }
}

/**
 * The caller's session for tRPC and SSR. Reads through the same cache rules as get-session;
 * Set-Cookie headers from a refresh are dropped here (get-session will reissue them).
 */
export async function getSessionFromRequest(
  request: Request,
  env: Env,
  opts: { fresh?: boolean } = {},
): Promise<{ session: SessionRecord; user: UserRecord } | null> {
  const ctx = new AuthContext(request, env, clock ?? Date.now);
  const loaded = await loadSession(ctx, { fresh: opts.fresh, disableRefresh: true });
  if (!loaded) return null;
  if (loaded.user.banned) return null;
  return { session: loaded.session, user: loaded.user };
}

/**
 * Server-side: a user's provider access token (better-auth's `auth.api.getAccessToken` without a
 * request). No cookies, so the user is named: `userId` is required ("Either userId or session is
 * required", SPEC §8, as 1.3.34 answers a call with neither).
 */
export async function getAccessToken(
  env: Env,
  body: { providerId: string; accountId?: string; userId?: string },
): Promise<{ accessToken: string; accessTokenExpiresAt?: string; scopes: string[]; idToken?: string }> {
  const request = new Request(
    new URL(`${getConfig(env).auth.basePath}/get-access-token`, getConfig(env).app.url),
  );
  const ctx = new AuthContext(request, env, clock ?? Date.now);
  return serverAccessToken(ctx, body);
}
