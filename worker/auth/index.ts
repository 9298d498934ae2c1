/** /api/auth: the better-auth 1.3 contract on D1 (DESIGN §2), also under /api/auth/admin (SPEC §7). */
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
const extraRoutes: Record<string, Route> = { ...socialRoutes };

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
 * get-session's body from memory alone (decision 041): a plain GET whose token and cookie cache were
 * verified here before, within its rate limit; nothing awaited or written, so the front door answers
 * it before opening the log and D1 scopes. Null when more is needed.
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

/** Where a read's Set-Cookie lines go: a response's headers (tRPC), or SSR's response. */
export interface CookieSink {
  append(name: "set-cookie", value: string): void;
}

type RequestSession = { session: SessionRecord; user: UserRecord } | null;

/** One session read per request that can send cookies (an SSR page's in-process calls share it). */
const readsOf = new WeakMap<Request, Promise<RequestSession>>();

/**
 * The caller's session for tRPC, SSR and plain HTTP, through get-session's cache rules. With `cookies`
 * the read is get-session's own (decision 050): a due session slides, its cookies go to the sink, once
 * a request. Without, nothing slides: the browser's cookie would expire on the old date.
 */
export function getSessionFromRequest(
  request: Request,
  env: Env,
  opts: { fresh?: boolean; cookies?: CookieSink } = {},
): Promise<RequestSession> {
  const sink = opts.cookies;
  if (!sink) return readSession(request, env, { fresh: opts.fresh, disableRefresh: true });
  if (opts.fresh) return readSession(request, env, { fresh: true, cookies: true }, sink);
  let read = readsOf.get(request);
  if (!read) {
    read = readSession(request, env, { cookies: true }, sink);
    readsOf.set(request, read);
  }
  return read;
}

async function readSession(
  request: Request,
  env: Env,
  opts: { fresh?: boolean; disableRefresh?: boolean; cookies?: boolean },
  sink?: CookieSink,
): Promise<RequestSession> {
  const ctx = new AuthContext(request, env, clock ?? Date.now);
  const loaded = await loadSession(ctx, opts);
  if (sink) for (const line of ctx.headers.getSetCookie()) sink.append("set-cookie", line);
  if (!loaded) return null;
  if (loaded.user.banned) return null;
  return { session: loaded.session, user: loaded.user };
}

/**
 * Server-side `auth.api.getAccessToken` without a request: no cookies, so `userId` is required
 * (SPEC §8, as 1.3.34 answers a call with neither).
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
