/**
 * The auth contract suite's table: every endpoint of SPEC §7 and of the admin plugin, with its
 * valid input, and the variants every endpoint is tried with (`variantsOf`). A case is one
 * endpoint × one variant; each runs on users of its own, created the same way on both servers.
 */
import {
  type Actor,
  FOREIGN_ORIGIN,
  Jar,
  makeAdmin,
  NEW_PASSWORD,
  PASSWORD,
  postJson,
  SetupError,
  type Side,
  send,
  signUpActor,
  type Wire,
} from "./harness.ts";
import { SHARED_ORIGIN } from "./server.ts";

export interface Fixture {
  side: Side;
  /** Case number: makes every address unique and the same on both sides. */
  n: number;
  me: Actor;
  admin: Actor;
  other: Actor;
  /** Tokens read from mail by a setup step. */
  data: Record<string, string>;
}

type Input = Record<string, unknown>;
type MeState = "verified" | "unverified" | "none";

interface Extra {
  /** Valid-looking input of its own (body for POST, query for GET). */
  input?: (f: Fixture) => Input;
  query?: (f: Fixture) => Record<string, string>;
  method?: "GET" | "POST";
  me?: MeState;
  setup?: (f: Fixture) => Promise<void>;
  /** Who sends it (default: the endpoint's actor). */
  as?: "me" | "admin" | "other" | "nobody";
}

export interface Endpoint {
  name: string;
  method: "GET" | "POST";
  path: string | ((f: Fixture) => string);
  /** Who sends the valid request: nobody, the case's user, or an admin. */
  auth: "none" | "user" | "admin";
  me?: MeState;
  input?: (f: Fixture) => Input;
  required?: string[];
  setup?: (f: Fixture) => Promise<void>;
  extras?: Record<string, Extra>;
  /** Only these variants (routing checks have no body to vary). */
  only?: string[];
}

const email = (f: Fixture, who: string) => `c${f.n}-${who}@example.test`;

/** The newest mailed link matching `pattern`, as a path under /api/auth and its query. */
async function link(f: Fixture, to: string, pattern: RegExp) {
  const l = await f.side.mailLink(to, pattern);
  if (!l) throw new SetupError(`no mail to ${to} matching ${pattern}`);
  const url = new URL(l, f.side.base);
  return { path: url.pathname.replace(/^\/api\/auth/, ""), query: Object.fromEntries(url.searchParams) };
}

async function ok(res: Response, what: string) {
  if (res.status >= 400) throw new SetupError(`${what}: HTTP ${res.status} ${await res.text()}`);
}

/** A reset mail for `me`; its token in data.token. */
async function resetMail(f: Fixture) {
  await ok(
    await send(
      f.side,
      postJson("/request-password-reset", { email: f.me.email, redirectTo: "/reset-password" }),
    ),
    "request-password-reset",
  );
  const l = await link(f, f.me.email, /\/reset-password\/[^/]+$/);
  f.data.token = l.path.split("/").pop() as string;
}

/** A verification mail for an unverified `me`: its token in data.token. */
async function verifyMail(f: Fixture) {
  const l = await link(f, f.me.email, /\/verify-email$/);
  f.data.token = l.query.token as string;
}

/** A deletion mail for `me` (a session older than the fresh age asks for one). */
async function deleteMail(f: Fixture) {
  await f.side.ageSessions(f.me.id);
  f.me.jar.cookies.delete("better-auth.session_data");
  await ok(await send(f.side, postJson("/delete-user", {}, f.me.jar)), "delete-user (mail)");
  const l = await link(f, f.me.email, /\/delete-user\/callback$/);
  f.data.token = l.query.token as string;
}

async function banMe(f: Fixture) {
  await ok(
    await send(f.side, postJson("/admin/ban-user", { userId: f.me.id, banReason: "spam" }, f.admin.jar)),
    "ban-user",
  );
}

async function impersonateMe(f: Fixture) {
  await ok(
    await send(f.side, postJson("/admin/impersonate-user", { userId: f.me.id }, f.admin.jar)),
    "impersonate",
  );
}

const socialBody = { provider: "github", callbackURL: "/dashboard" };

export const endpoints: Endpoint[] = [
  /* ---------------------------------------------------------------- sign-up / sign-in */
  {
    name: "POST /sign-up/email",
    method: "POST",
    path: "/sign-up/email",
    auth: "none",
    input: (f) => ({ name: "New Person", email: email(f, "new"), password: PASSWORD }),
    required: ["name", "email", "password"],
    extras: {
      "existing email": { input: (f) => ({ name: "Again", email: f.me.email, password: PASSWORD }) },
      "invalid email": { input: () => ({ name: "X", email: "not-an-email", password: PASSWORD }) },
      "short password": { input: (f) => ({ name: "X", email: email(f, "new"), password: "short" }) },
      "long password": { input: (f) => ({ name: "X", email: email(f, "new"), password: "x".repeat(129) }) },
      "rememberMe false": {
        input: (f) => ({ name: "X", email: email(f, "new"), password: PASSWORD, rememberMe: false }),
      },
      "trusted callbackURL": {
        input: (f) => ({ name: "X", email: email(f, "new"), password: PASSWORD, callbackURL: "/dashboard" }),
      },
      "foreign callbackURL": {
        input: (f) => ({
          name: "X",
          email: email(f, "new"),
          password: PASSWORD,
          callbackURL: `${FOREIGN_ORIGIN}/x`,
        }),
      },
      "upper-case email": {
        input: (f) => ({ name: "X", email: email(f, "NEW").toUpperCase(), password: PASSWORD }),
      },
      // The cookie cache is UTF-8 base64url, as better-auth writes it (ours took Latin-1 only: 400).
      "name outside Latin-1": {
        input: (f) => ({ name: "Łukasz 田中 😀", email: email(f, "new"), password: PASSWORD }),
      },
      // Adversarial review 2: 403 before the user row is written (ours answered 500 after it).
      "lone surrogate callbackURL": {
        input: (f) => ({ name: "X", email: email(f, "new"), password: PASSWORD, callbackURL: "/x\ud800" }),
      },
    },
  },
  {
    name: "POST /sign-in/email",
    method: "POST",
    path: "/sign-in/email",
    auth: "none",
    input: (f) => ({ email: f.me.email, password: PASSWORD }),
    required: ["email", "password"],
    extras: {
      "wrong password": { input: (f) => ({ email: f.me.email, password: "wrong-password-123" }) },
      "unknown email": { input: (f) => ({ email: email(f, "nobody"), password: PASSWORD }) },
      "invalid email": { input: () => ({ email: "not-an-email", password: PASSWORD }) },
      "long password": { input: (f) => ({ email: f.me.email, password: "x".repeat(129) }) },
      "trusted callbackURL": {
        input: (f) => ({ email: f.me.email, password: PASSWORD, callbackURL: "/dashboard" }),
      },
      "foreign callbackURL": {
        input: (f) => ({ email: f.me.email, password: PASSWORD, callbackURL: `${FOREIGN_ORIGIN}/x` }),
      },
      "rememberMe false": { input: (f) => ({ email: f.me.email, password: PASSWORD, rememberMe: false }) },
      "unverified user": { me: "unverified" },
      "banned user": { setup: banMe },
    },
  },
  /* ---------------------------------------------------------------- sessions */
  {
    name: "GET /get-session",
    method: "GET",
    path: "/get-session",
    auth: "user",
    input: () => ({}),
    extras: {
      disableCookieCache: { query: () => ({ disableCookieCache: "true" }) },
      disableRefresh: { query: () => ({ disableRefresh: "true" }) },
      "unverified user": { me: "unverified" },
      "banned user": { setup: banMe },
      "impersonating admin": { as: "admin", setup: impersonateMe },
    },
  },
  {
    name: "POST /sign-out",
    method: "POST",
    path: "/sign-out",
    auth: "user",
    input: () => ({}),
  },
  { name: "GET /list-sessions", method: "GET", path: "/list-sessions", auth: "user", input: () => ({}) },
  {
    name: "POST /revoke-session",
    method: "POST",
    path: "/revoke-session",
    auth: "user",
    input: (f) => ({ token: f.me.token }),
    required: ["token"],
    extras: { "unknown token": { input: () => ({ token: "no-such-token" }) } },
  },
  {
    name: "POST /revoke-sessions",
    method: "POST",
    path: "/revoke-sessions",
    auth: "user",
    input: () => ({}),
  },
  {
    name: "POST /revoke-other-sessions",
    method: "POST",
    path: "/revoke-other-sessions",
    auth: "user",
    input: () => ({}),
  },
  /* ---------------------------------------------------------------- user */
  {
    name: "POST /update-user",
    method: "POST",
    path: "/update-user",
    auth: "user",
    input: () => ({ name: "Renamed Person" }),
    required: ["name"],
    extras: {
      "email field": { input: (f) => ({ email: email(f, "changed") }) },
      "role field": { input: () => ({ role: "admin" }) },
      "image url": { input: () => ({ image: "https://example.com/a.png" }) },
    },
  },
  {
    name: "POST /change-password",
    method: "POST",
    path: "/change-password",
    auth: "user",
    input: () => ({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD }),
    required: ["currentPassword", "newPassword"],
    extras: {
      "revokeOtherSessions true": {
        input: () => ({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: true }),
      },
      "wrong current": {
        input: () => ({ currentPassword: "wrong-password-123", newPassword: NEW_PASSWORD }),
      },
      "short new": { input: () => ({ currentPassword: PASSWORD, newPassword: "short" }) },
      "long new": { input: () => ({ currentPassword: PASSWORD, newPassword: "x".repeat(129) }) },
    },
  },
  /* ---------------------------------------------------------------- e-mail verification */
  {
    name: "POST /send-verification-email",
    method: "POST",
    path: "/send-verification-email",
    auth: "user",
    me: "unverified",
    input: (f) => ({ email: f.me.email, callbackURL: "/dashboard" }),
    required: ["email"],
    extras: {
      "verified user": { me: "verified" },
      "someone else's address": { input: (f) => ({ email: email(f, "elsewhere") }) },
      "signed out, unknown address": { as: "nobody", input: (f) => ({ email: email(f, "nobody") }) },
      "signed out, own address": { as: "nobody" },
      "foreign callbackURL": { input: (f) => ({ email: f.me.email, callbackURL: `${FOREIGN_ORIGIN}/x` }) },
      "lone surrogate callbackURL": { input: (f) => ({ email: f.me.email, callbackURL: "/x\ud800" }) },
    },
  },
  {
    name: "GET /verify-email",
    method: "GET",
    path: "/verify-email",
    auth: "user",
    me: "unverified",
    setup: verifyMail,
    input: (f) => ({ token: f.data.token }),
    required: ["token"],
    extras: {
      "with callbackURL": { input: (f) => ({ token: f.data.token, callbackURL: "/dashboard" }) },
      "bad token": { input: () => ({ token: "not-a-token" }) },
      "bad token with callbackURL": { input: () => ({ token: "not-a-token", callbackURL: "/dashboard" }) },
      "foreign callbackURL": { input: (f) => ({ token: f.data.token, callbackURL: `${FOREIGN_ORIGIN}/x` }) },
      "signed out": { as: "nobody" },
    },
  },
  /* ---------------------------------------------------------------- password reset */
  {
    name: "POST /request-password-reset",
    method: "POST",
    path: "/request-password-reset",
    auth: "none",
    input: (f) => ({ email: f.me.email, redirectTo: "/reset-password" }),
    required: ["email"],
    extras: {
      "unknown address": { input: (f) => ({ email: email(f, "nobody") }) },
      "foreign redirectTo": { input: (f) => ({ email: f.me.email, redirectTo: `${FOREIGN_ORIGIN}/x` }) },
      "lone surrogate redirectTo": { input: (f) => ({ email: f.me.email, redirectTo: "/x\ud800" }) },
    },
  },
  {
    name: "POST /forget-password",
    method: "POST",
    path: "/forget-password",
    auth: "none",
    input: (f) => ({ email: f.me.email, redirectTo: "/reset-password" }),
    required: ["email"],
    extras: {
      "unknown address": { input: (f) => ({ email: email(f, "nobody") }) },
      "foreign redirectTo": { input: (f) => ({ email: f.me.email, redirectTo: `${FOREIGN_ORIGIN}/x` }) },
      "lone surrogate redirectTo": { input: (f) => ({ email: f.me.email, redirectTo: "/x\ud800" }) },
    },
  },
  {
    name: "GET /reset-password/:token",
    method: "GET",
    path: (f) => `/reset-password/${f.data.token ?? "none"}`,
    auth: "none",
    setup: resetMail,
    input: () => ({ callbackURL: "/reset-password" }),
    required: ["callbackURL"],
    extras: {
      "bad token": {
        setup: async (f) => {
          f.data.token = "not-a-token";
        },
      },
      "foreign callbackURL": { input: () => ({ callbackURL: `${FOREIGN_ORIGIN}/x` }) },
    },
  },
  {
    name: "POST /reset-password",
    method: "POST",
    path: "/reset-password",
    auth: "none",
    setup: resetMail,
    input: (f) => ({ newPassword: NEW_PASSWORD, token: f.data.token }),
    required: ["newPassword", "token"],
    extras: {
      "token in query": {
        input: () => ({ newPassword: NEW_PASSWORD }),
        query: (f) => ({ token: f.data.token ?? "" }),
      },
      "bad token": { input: () => ({ newPassword: NEW_PASSWORD, token: "not-a-token" }) },
      "short password": { input: (f) => ({ newPassword: "short", token: f.data.token }) },
    },
  },
  /* ---------------------------------------------------------------- change e-mail */
  {
    name: "POST /change-email",
    method: "POST",
    path: "/change-email",
    auth: "user",
    input: (f) => ({ newEmail: email(f, "changed"), callbackURL: "/settings" }),
    required: ["newEmail"],
    extras: {
      "unverified user": { me: "unverified" },
      "same address": { input: (f) => ({ newEmail: f.me.email }) },
      "address taken": { input: (f) => ({ newEmail: f.admin.email }) },
      "invalid address": { input: () => ({ newEmail: "not-an-email" }) },
      "foreign callbackURL": {
        input: (f) => ({ newEmail: email(f, "changed"), callbackURL: `${FOREIGN_ORIGIN}/x` }),
      },
      "lone surrogate callbackURL": {
        input: (f) => ({ newEmail: email(f, "changed"), callbackURL: "/x\ud800" }),
      },
    },
  },
  /* ---------------------------------------------------------------- delete user */
  {
    name: "POST /delete-user",
    method: "POST",
    path: "/delete-user",
    auth: "user",
    input: () => ({ password: PASSWORD }),
    required: ["password"],
    extras: {
      "fresh session, no password": { input: () => ({}) },
      "stale session, no password": {
        input: () => ({}),
        setup: async (f) => {
          await f.side.ageSessions(f.me.id);
          f.me.jar.cookies.delete("better-auth.session_data");
        },
      },
      "wrong password": { input: () => ({ password: "wrong-password-123" }) },
      "bad token": { input: () => ({ token: "not-a-token" }) },
      "mailed token": { setup: deleteMail, input: (f) => ({ token: f.data.token }) },
    },
  },
  {
    name: "GET /delete-user/callback",
    method: "GET",
    path: "/delete-user/callback",
    auth: "user",
    setup: deleteMail,
    input: (f) => ({ token: f.data.token }),
    required: ["token"],
    extras: {
      "with callbackURL": { input: (f) => ({ token: f.data.token, callbackURL: "/goodbye" }) },
      "bad token": { input: () => ({ token: "not-a-token" }) },
      "foreign callbackURL": { input: (f) => ({ token: f.data.token, callbackURL: `${FOREIGN_ORIGIN}/x` }) },
    },
  },
  /* ---------------------------------------------------------------- accounts */
  { name: "GET /list-accounts", method: "GET", path: "/list-accounts", auth: "user", input: () => ({}) },
  {
    name: "POST /unlink-account",
    method: "POST",
    path: "/unlink-account",
    auth: "user",
    input: () => ({ providerId: "credential" }),
    required: ["providerId"],
    extras: { "unknown provider": { input: () => ({ providerId: "github" }) } },
  },
  /* ---------------------------------------------------------------- pages */
  {
    name: "GET /error",
    method: "GET",
    path: "/error",
    auth: "none",
    me: "none",
    input: () => ({ error: "INVALID_TOKEN" }),
    extras: { "odd code": { input: () => ({ error: "<script>" }) } },
  },
  { name: "GET /ok", method: "GET", path: "/ok", auth: "none", me: "none", input: () => ({}) },
  /* ---------------------------------------------------------------- social (no provider configured) */
  {
    name: "POST /sign-in/social",
    method: "POST",
    path: "/sign-in/social",
    auth: "none",
    me: "none",
    input: () => socialBody,
    required: ["provider"],
    extras: { "unknown provider": { input: () => ({ provider: "myspace" }) } },
  },
  {
    name: "GET /callback/:id",
    method: "GET",
    path: "/callback/github",
    auth: "none",
    me: "none",
    input: () => ({ state: "not-a-state", code: "abc" }),
    extras: {
      "no state": { input: () => ({ code: "abc" }) },
      "POST form": { method: "POST", input: () => ({ state: "not-a-state", code: "abc" }) },
    },
  },
  {
    name: "POST /link-social",
    method: "POST",
    path: "/link-social",
    auth: "user",
    input: () => socialBody,
    required: ["provider"],
  },
  {
    name: "POST /get-access-token",
    method: "POST",
    path: "/get-access-token",
    auth: "user",
    input: () => ({ providerId: "github" }),
    required: ["providerId"],
  },
  {
    name: "POST /refresh-token",
    method: "POST",
    path: "/refresh-token",
    auth: "user",
    input: () => ({ providerId: "github" }),
    required: ["providerId"],
  },
  {
    name: "POST /account-info",
    method: "POST",
    path: "/account-info",
    auth: "user",
    input: () => ({ accountId: "not-an-account" }),
    required: ["accountId"],
    extras: { GET: { method: "GET", input: () => ({ accountId: "not-an-account" }) } },
  },
  {
    name: "POST /set-password",
    method: "POST",
    path: "/set-password",
    auth: "user",
    input: () => ({ newPassword: NEW_PASSWORD }),
    only: ["valid"],
  },
  /* ---------------------------------------------------------------- admin plugin */
  {
    name: "GET /admin/list-users",
    method: "GET",
    path: "/admin/list-users",
    auth: "admin",
    input: (f) => ({ searchValue: f.me.email, searchField: "email", searchOperator: "contains" }),
    extras: {
      // Cases run beside each other: a list is narrowed to this case's own users.
      "sorted, limited": {
        input: (f) => ({
          searchValue: `c${f.n}-`,
          sortBy: "email",
          sortDirection: "desc",
          limit: "1",
          offset: "0",
        }),
      },
      "filter role": {
        input: (f) => ({
          searchValue: `c${f.n}-`,
          filterField: "role",
          filterValue: "admin",
          filterOperator: "eq",
        }),
      },
      "bad limit": { input: () => ({ limit: "lots" }) },
    },
  },
  {
    name: "GET /admin/get-user",
    method: "GET",
    path: "/admin/get-user",
    auth: "admin",
    input: (f) => ({ id: f.me.id }),
    required: ["id"],
    extras: { "unknown id": { input: () => ({ id: "no-such-user" }) } },
  },
  {
    name: "POST /admin/create-user",
    method: "POST",
    path: "/admin/create-user",
    auth: "admin",
    input: (f) => ({ email: email(f, "created"), password: PASSWORD, name: "Created Person", role: "user" }),
    required: ["email", "password", "name"],
    extras: {
      "existing email": { input: (f) => ({ email: f.me.email, password: PASSWORD, name: "Again" }) },
      "role list": {
        input: (f) => ({
          email: email(f, "created"),
          password: PASSWORD,
          name: "C",
          role: ["user", "admin"],
        }),
      },
      "short password": { input: (f) => ({ email: email(f, "created"), password: "short", name: "C" }) },
    },
  },
  {
    name: "POST /admin/update-user",
    method: "POST",
    path: "/admin/update-user",
    auth: "admin",
    input: (f) => ({ userId: f.me.id, data: { name: "Renamed By Admin" } }),
    required: ["userId", "data"],
    extras: {
      "empty data": { input: (f) => ({ userId: f.me.id, data: {} }) },
      "password in data": { input: (f) => ({ userId: f.me.id, data: { password: NEW_PASSWORD } }) },
      "unknown user": { input: () => ({ userId: "no-such-user", data: { name: "X" } }) },
    },
  },
  {
    name: "POST /admin/set-role",
    method: "POST",
    path: "/admin/set-role",
    auth: "admin",
    input: (f) => ({ userId: f.me.id, role: "admin" }),
    required: ["userId", "role"],
    extras: {
      "role list": { input: (f) => ({ userId: f.me.id, role: ["user", "admin"] }) },
      "unknown user": { input: () => ({ userId: "no-such-user", role: "admin" }) },
    },
  },
  {
    name: "POST /admin/ban-user",
    method: "POST",
    path: "/admin/ban-user",
    auth: "admin",
    input: (f) => ({ userId: f.me.id, banReason: "spam", banExpiresIn: 3600 }),
    required: ["userId"],
    extras: {
      "no reason": { input: (f) => ({ userId: f.me.id }) },
      yourself: { input: (f) => ({ userId: f.admin.id }) },
      "unknown user": { input: () => ({ userId: "no-such-user" }) },
    },
  },
  {
    name: "POST /admin/unban-user",
    method: "POST",
    path: "/admin/unban-user",
    auth: "admin",
    setup: banMe,
    input: (f) => ({ userId: f.me.id }),
    required: ["userId"],
    extras: { "unknown user": { input: () => ({ userId: "no-such-user" }) } },
  },
  {
    name: "POST /admin/list-user-sessions",
    method: "POST",
    path: "/admin/list-user-sessions",
    auth: "admin",
    input: (f) => ({ userId: f.me.id }),
    required: ["userId"],
  },
  {
    name: "POST /admin/revoke-user-session",
    method: "POST",
    path: "/admin/revoke-user-session",
    auth: "admin",
    input: (f) => ({ sessionToken: f.me.token }),
    required: ["sessionToken"],
    extras: { "unknown token": { input: () => ({ sessionToken: "no-such-token" }) } },
  },
  {
    name: "POST /admin/revoke-user-sessions",
    method: "POST",
    path: "/admin/revoke-user-sessions",
    auth: "admin",
    input: (f) => ({ userId: f.me.id }),
    required: ["userId"],
  },
  {
    name: "POST /admin/remove-user",
    method: "POST",
    path: "/admin/remove-user",
    auth: "admin",
    input: (f) => ({ userId: f.me.id }),
    required: ["userId"],
    extras: {
      yourself: { input: (f) => ({ userId: f.admin.id }) },
      "unknown user": { input: () => ({ userId: "no-such-user" }) },
    },
  },
  {
    name: "POST /admin/set-user-password",
    method: "POST",
    path: "/admin/set-user-password",
    auth: "admin",
    input: (f) => ({ userId: f.me.id, newPassword: NEW_PASSWORD }),
    required: ["userId", "newPassword"],
    extras: { "short password": { input: (f) => ({ userId: f.me.id, newPassword: "short" }) } },
  },
  {
    name: "POST /admin/has-permission",
    method: "POST",
    path: "/admin/has-permission",
    auth: "admin",
    input: () => ({ permissions: { user: ["list"] } }),
    required: ["permissions"],
    extras: {
      "deprecated permission": { input: () => ({ permission: { user: ["list"] } }) },
      "as a user": { as: "me" },
      "unknown resource": { input: () => ({ permissions: { donation: ["create"] } }) },
    },
  },
  {
    name: "POST /admin/impersonate-user",
    method: "POST",
    path: "/admin/impersonate-user",
    auth: "admin",
    input: (f) => ({ userId: f.me.id }),
    required: ["userId"],
    extras: {
      "an admin": {
        input: (f) => ({ userId: f.me.id }),
        setup: async (f) => f.side.exec("UPDATE user SET role = 'admin' WHERE id = ?", f.me.id),
      },
      "unknown user": { input: () => ({ userId: "no-such-user" }) },
    },
  },
  {
    name: "POST /admin/stop-impersonating",
    method: "POST",
    path: "/admin/stop-impersonating",
    auth: "admin",
    setup: impersonateMe,
    input: () => ({}),
    extras: { "not impersonating": { setup: async () => {} } },
  },
  /* ---------------------------------------------------------------- routing */
  {
    name: "POST /admin/sign-in/email (admin-auth base)",
    method: "POST",
    path: "/admin/sign-in/email",
    auth: "none",
    input: (f) => ({ email: f.me.email, password: PASSWORD }),
    only: ["valid"],
  },
  {
    name: "GET /admin/get-session (admin-auth base)",
    method: "GET",
    path: "/admin/get-session",
    auth: "user",
    input: () => ({}),
    only: ["valid"],
  },
  {
    name: "POST /admin/sign-out (admin-auth base)",
    method: "POST",
    path: "/admin/sign-out",
    auth: "user",
    input: () => ({}),
    only: ["valid"],
  },
  {
    name: "GET /admin/admin/list-users (admin-auth base)",
    method: "GET",
    path: "/admin/admin/list-users",
    auth: "admin",
    input: () => ({}),
    only: ["valid"],
  },
  {
    name: "GET /get-session/ (trailing slash)",
    method: "GET",
    path: "/get-session/",
    auth: "user",
    input: () => ({}),
    only: ["valid"],
  },
  {
    name: "GET /no-such-endpoint",
    method: "GET",
    path: "/no-such-endpoint",
    auth: "none",
    me: "none",
    input: () => ({}),
    only: ["valid"],
  },
  {
    name: "POST /get-session (wrong method)",
    method: "POST",
    path: "/get-session",
    auth: "user",
    input: () => ({}),
    only: ["valid"],
  },
  {
    name: "GET /sign-in/email (wrong method)",
    method: "GET",
    path: "/sign-in/email",
    auth: "none",
    me: "none",
    input: () => ({}),
    only: ["valid"],
  },
];

export interface Case {
  endpoint: Endpoint;
  variant: string;
}

const wrongTypeOf = (v: unknown): unknown =>
  typeof v === "string" ? 12345 : typeof v === "number" ? "abc" : typeof v === "boolean" ? "yes" : "x";

/** The variants of an endpoint, in a fixed order. */
export function variantsOf(ep: Endpoint): string[] {
  const all: string[] = ["valid"];
  for (const r of ep.required ?? []) all.push(`missing ${r}`);
  if (ep.method === "POST") for (const r of ep.required ?? []) all.push(`wrong-typed ${r}`);
  all.push("unknown extra field");
  if (ep.method === "POST") all.push("Content-Type text/plain", "empty body", "malformed JSON");
  if (ep.auth !== "none") all.push("no session", "another user's session", "signed-out session");
  if (ep.method === "POST") all.push("cookies, no Origin", "foreign Origin");
  for (const x of Object.keys(ep.extras ?? {})) all.push(x);
  return ep.only ? all.filter((v) => ep.only?.includes(v)) : all;
}

export function allCases(): Case[] {
  return endpoints.flatMap((endpoint) => variantsOf(endpoint).map((variant) => ({ endpoint, variant })));
}

/** Runs one case on one side: fresh users, the setup steps, the request; the response. */
export const THEN = " → then get-session";

export async function runCase(
  side: Side,
  c: Case,
  n: number,
  shared?: { admin: Actor },
): Promise<{ main: Response; after: Response | null }> {
  const ep = c.endpoint;
  const extra = ep.extras?.[c.variant];
  const meState = extra?.me ?? ep.me ?? "verified";
  const needsOther = c.variant === "another user's session";
  const needsAdmin =
    ep.auth === "admin" ||
    c.variant === "address taken" ||
    c.variant === "banned user" ||
    c.variant === "impersonating admin";
  const f = { side, n, data: {} } as Fixture;
  const placeholder: Actor = { email: `c${n}-none@example.test`, id: "none", token: "none", jar: new Jar() };
  f.me =
    meState === "none"
      ? placeholder
      : await signUpActor(side, email(f, "me"), { verified: meState === "verified" });
  // One admin serves every case that only acts through it (a copy of its cookies each time); a case
  // that signs it out or aims at it gets its own.
  const ownAdmin = c.variant === "signed-out session" || c.variant === "yourself" || !shared;
  f.admin = !needsAdmin
    ? placeholder
    : ownAdmin
      ? await makeAdmin(side, email(f, "admin"))
      : { ...shared.admin, jar: shared.admin.jar.copy() };
  f.other = needsOther ? await signUpActor(side, email(f, "other"), { name: "Other Person" }) : placeholder;
  await ep.setup?.(f);
  await extra?.setup?.(f);

  const actorFor = (as: Extra["as"] | undefined): Jar | null => {
    const who = as ?? (ep.auth === "admin" ? "admin" : ep.auth === "user" ? "me" : "nobody");
    return who === "nobody" ? null : f[who].jar;
  };
  let jar = actorFor(extra?.as);
  const method = extra?.method ?? ep.method;
  const path = typeof ep.path === "function" ? ep.path(f) : ep.path;
  let input: Input = (extra?.input ?? ep.input ?? (() => ({})))(f);
  let query: Record<string, string> = extra?.query?.(f) ?? {};
  let body: string | undefined;
  let contentType: string | null = method === "POST" ? "application/json" : null;
  let origin: string | null = method === "POST" ? SHARED_ORIGIN : null;

  const v = c.variant;
  if (v.startsWith("missing ")) {
    const { [v.slice(8)]: _, ...rest } = input;
    input = rest;
  } else if (v.startsWith("wrong-typed ")) {
    const k = v.slice(12);
    input = { ...input, [k]: wrongTypeOf(input[k]) };
  } else if (v === "unknown extra field") {
    input = { ...input, unexpectedField: "surprise" };
  }
  if (method === "GET") {
    query = { ...(input as Record<string, string>), ...query };
  } else {
    body = JSON.stringify(input);
    if (v === "Content-Type text/plain") contentType = "text/plain";
    if (v === "empty body") body = undefined;
    if (v === "malformed JSON") body = '{"email": "a@example.test", ';
    if (extra?.method === "POST" && ep.method === "GET") {
      contentType = "application/x-www-form-urlencoded";
      body = new URLSearchParams(input as Record<string, string>).toString();
    }
  }
  if (v === "no session") jar = null;
  if (v === "another user's session") jar = f.other.jar;
  if (v === "signed-out session" && jar) {
    const stale = jar.copy();
    await ok(await send(side, postJson("/sign-out", {}, jar)), "sign-out (stale)");
    jar = stale;
  }
  if (v === "cookies, no Origin") {
    origin = null;
    jar ??= f.me.jar;
  }
  if (v === "foreign Origin") {
    origin = FOREIGN_ORIGIN;
    jar ??= f.me.jar;
  }
  const wire: Wire = { method, path, query, body, contentType, jar, origin };
  const main = await send(side, wire);
  // What the request left behind for the browser that sent it: its session as the database now
  // holds it (a sign-out that did not end the session, a revocation that missed, show here).
  const after = jar
    ? await send(side, { method: "GET", path: "/get-session", query: { disableCookieCache: "true" }, jar })
    : null;
  return { main, after };
}
