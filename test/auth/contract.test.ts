/**
 * Issue 20: answers of the auth API checked against better-auth 1.3.34, the oracle of its wire
 * contract (docs/steering/SPEC.md §4, §5, §7, §8, §9; node_modules/better-auth/dist). Each test
 * names the 1.3.34 behaviour it pins. Where 1.3.34 answers only when its database fails, the test
 * breaks one statement of a real D1 (failingEnv) rather than mocking the handler.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { __setAuthClock, getAccessToken } from "../../worker/auth";
import { AuthContext } from "../../worker/auth/core";
import { AuthApiError } from "../../worker/auth/errors";
import { getProvider } from "../../worker/auth/social/client";
import { createState } from "../../worker/auth/social/state";
import { BASE_URL, testEnv } from "../helpers";
import { email, Jar, loginAtProvider, startFlow } from "../social/helpers";
import worker from "../worker";
import { authClient, CookieJar, lastMail, PASSWORD, signUp, uniqueEmail } from "./jar";

afterEach(() => {
  __setAuthClock(null);
  vi.restoreAllMocks();
});

/** The test env, except that statements matching `sql` name a table that does not exist (D1 throws). */
function failingEnv(sql: RegExp): Env {
  // Requests run their queries in D1 sessions (worker/db/databases.ts): they fail the same way.
  const failing = <T extends Pick<D1Database, "prepare" | "batch">>(db: T) => ({
    prepare: (query: string) => db.prepare(query.replace(sql, (m) => `${m}_unavailable`)),
    batch: (statements: D1PreparedStatement[]) => db.batch(statements),
  });
  const db = testEnv.DB;
  const DB = {
    ...failing(db),
    exec: (query: string) => db.exec(query),
    dump: () => db.dump(),
    withSession: (constraint?: string) => {
      const session = db.withSession(constraint);
      return { ...failing(session), getBookmark: () => session.getBookmark() };
    },
  } as unknown as D1Database;
  return { ...testEnv, DB } as Env;
}

/** One request through the worker with `env`, carrying `jar`'s cookies. */
async function fetchIn(env: Env, path: string, init: RequestInit = {}, jar?: { header(): string }) {
  const headers = new Headers(init.headers);
  if (jar) headers.set("cookie", jar.header());
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(new URL(path, BASE_URL), { ...init, headers, redirect: "manual" }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

const postIn = (env: Env, path: string, body: unknown, jar?: { header(): string }) =>
  fetchIn(
    env,
    path,
    {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE_URL },
      body: JSON.stringify(body),
    },
    jar,
  );

const HOUR = 3600_000;

describe("freshness (SPEC §4): created or updated within the freshness age", () => {
  it("a session refreshed a moment ago is fresh, though created more than a day before", async () => {
    const start = Date.now();
    const { jar } = await signUp();
    __setAuthClock(() => start + 25 * HOUR);
    // Past updateAge (1 day): this read slides the session, and its updatedAt is now.
    const read = (await (await jar.get("/api/auth/get-session?disableCookieCache=true")).json()) as {
      session: { createdAt: string; updatedAt: string };
    };
    expect(Date.parse(read.session.updatedAt) - Date.parse(read.session.createdAt)).toBeGreaterThan(
      24 * HOUR,
    );
    // Fresh (1.3.34's freshSessionMiddleware on unlink-account): past the gate, to the next rule.
    const res = await jar.post("/api/auth/unlink-account", { providerId: "credential" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT");
  });

  it("one neither created nor updated within the freshness age is refused: 403 'Session is not fresh'", async () => {
    // No slide within the two days: the session stays as it was created.
    const jar = new Jar({ SESSION_UPDATE_AGE: String(2 * 24 * 3600) });
    const start = Date.now();
    const up = await jar.post("/api/auth/sign-up/email", {
      name: "S",
      email: email("stale"),
      password: PASSWORD,
    });
    expect(up.status).toBe(200);
    __setAuthClock(() => start + 25 * HOUR);
    const unlink = await jar.post("/api/auth/unlink-account", { providerId: "credential" });
    expect(unlink.status).toBe(403);
    expect(await unlink.json()).toEqual({ code: "SESSION_IS_NOT_FRESH", message: "Session is not fresh" });
  });

  it("delete-user keeps SPEC §6's rule: a session created more than the freshness age ago needs the password or a mail", async () => {
    const start = Date.now();
    const { jar } = await signUp();
    __setAuthClock(() => start + 25 * HOUR);
    await jar.get("/api/auth/get-session?disableCookieCache=true"); // slid: updated now, created before
    const res = await jar.post("/api/auth/delete-user", {});
    expect(await res.json()).toEqual({
      code: "SESSION_EXPIRED",
      message: "Session expired. Re-authenticate to perform this action.",
    });
  });
});

describe("sign-in and the password length (SPEC §5)", () => {
  it("refuses a password under the minimum or over the maximum with 400, known address or not (1.3.34 answers 401: kept)", async () => {
    const { email: known } = await signUp();
    const short = { code: "PASSWORD_TOO_SHORT", message: "Password too short" };
    const long = { code: "PASSWORD_TOO_LONG", message: "Password too long" };
    for (const [address, password, refusal] of [
      [known, "short", short],
      [uniqueEmail("ghost"), "short", short],
      [known, "x".repeat(129), long],
      [uniqueEmail("ghost"), "x".repeat(129), long],
    ] as const) {
      const res = await new CookieJar().post("/api/auth/sign-in/email", { email: address, password });
      expect(res.status, `${address} ${password.length}`).toBe(400);
      expect(await res.json()).toEqual(refusal);
    }
    // A wrong password of an allowed length is still the one 401.
    const wrong = await new CookieJar().post("/api/auth/sign-in/email", {
      email: known,
      password: "wrong-but-long",
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      code: "INVALID_EMAIL_OR_PASSWORD",
      message: "Invalid email or password",
    });
    // The official client sees the same refusal.
    const { client } = authClient();
    const viaClient = await client.signIn.email({ email: known, password: "short" });
    expect(viaClient.error).toMatchObject({ status: 400, code: "PASSWORD_TOO_SHORT" });
  });
});

describe("the messages of SPEC §8, where 1.3.34 produces them", () => {
  it("'Failed to get session': sign-out without a session cookie → 400", async () => {
    const res = await new CookieJar().post("/api/auth/sign-out");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "FAILED_TO_GET_SESSION", message: "Failed to get session" });
    // A forged (unsigned) cookie is no cookie.
    const forged = new CookieJar();
    forged.cookies.set("better-auth.session_token", "made-up");
    expect((await forged.post("/api/auth/sign-out")).status).toBe(400);
    // With a session: 200, as before.
    const { jar } = await signUp();
    expect(await (await jar.post("/api/auth/sign-out")).json()).toEqual({ success: true });
  });

  it("'Email not verified': with requireEmailVerification, an unverified user's password sign-in → 403", async () => {
    const jar = new Jar({ FEATURES_REQUIRE_EMAIL_VERIFICATION: "true" });
    const address = email("unverified");
    const up = await jar.post("/api/auth/sign-up/email", { name: "U", email: address, password: PASSWORD });
    // 1.3.34: the account waits for its mail; no session.
    expect(((await up.json()) as { token: string | null }).token).toBeNull();
    expect(jar.cookies.has("better-auth.session_token")).toBe(false);
    expect((await lastMail(address))?.subject).toBe("Verify your e-mail address");
    const denied = await jar.post("/api/auth/sign-in/email", { email: address, password: PASSWORD });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    // A wrong password still says only that.
    const wrong = await jar.post("/api/auth/sign-in/email", { email: address, password: "not it at all" });
    expect(wrong.status).toBe(401);
    await testEnv.DB.prepare("UPDATE user SET email_verified = 1 WHERE email = ?").bind(address).run();
    expect((await jar.post("/api/auth/sign-in/email", { email: address, password: PASSWORD })).status).toBe(
      200,
    );
  });

  it("'callbackURL is required': an OAuth state with nowhere to come back to → 400", async () => {
    const ctx = new AuthContext(new Request(`${BASE_URL}/api/auth/sign-in/social`), testEnv);
    const error = await createState(ctx, {
      providerId: "huggingface",
      codeVerifier: "v".repeat(128),
      redirectURI: `${BASE_URL}/api/auth/callback/huggingface`,
      callbackURL: "",
      scopes: [],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({
      status: 400,
      code: "CALLBACKURL_IS_REQUIRED",
      message: "callbackURL is required",
    });
  });

  it("'Unable to create verification': the OAuth state cannot be stored → 500 with that message", async () => {
    const env = failingEnv(/INSERT INTO verification\b/);
    const res = await postIn(env, "/api/auth/sign-in/social", {
      provider: "huggingface",
      callbackURL: "/dashboard",
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: "UNABLE_TO_CREATE_VERIFICATION",
      message: "Unable to create verification",
    });
  });

  it("'Failed to create session': the session cannot be stored → 401 on sign-in, 400 on sign-up", async () => {
    const { email: address } = await signUp();
    const env = failingEnv(/INSERT INTO session\b/);
    const body = { code: "FAILED_TO_CREATE_SESSION", message: "Failed to create session" };
    const signIn = await postIn(env, "/api/auth/sign-in/email", { email: address, password: PASSWORD });
    expect(signIn.status).toBe(401);
    expect(await signIn.json()).toEqual(body);
    const up = await postIn(env, "/api/auth/sign-up/email", {
      name: "N",
      email: uniqueEmail(),
      password: PASSWORD,
    });
    expect(up.status).toBe(400);
    expect(await up.json()).toEqual(body);
  });

  it("'Failed to unlink last account' (BASE_ERROR_CODES): 400 'You can't unlink your last account'", async () => {
    const { jar } = await signUp();
    const res = await jar.post("/api/auth/unlink-account", { providerId: "credential" });
    expect(res.status).toBe(400);
    // better-call derives the code from the message.
    expect(await res.json()).toEqual({
      code: "YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT",
      message: "You can't unlink your last account",
    });
  });

  it("'Either userId or session is required': a server-side token call naming no user → 400", async () => {
    const error = await getAccessToken(testEnv, { providerId: "huggingface" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      code: "EITHER_USERID_OR_SESSION_IS_REQUIRED",
      message: "Either userId or session is required",
    });
    // Naming the user works without any session.
    const jar = new Jar();
    const { url } = await startFlow(jar, "/api/auth/sign-in/social", { provider: "huggingface" });
    await jar.get(await loginAtProvider(url, { login: email("server") }));
    const me = (await (await jar.get("/api/auth/get-session")).json()) as { user: { id: string } };
    const token = await getAccessToken(testEnv, { providerId: "huggingface", userId: me.user.id });
    expect(token.accessToken).toBeTruthy();
  });

  it("'Access token not found': account-info for an account without an access token → 400", async () => {
    const jar = new Jar();
    const address = email("notoken");
    const { url } = await startFlow(jar, "/api/auth/sign-in/social", { provider: "huggingface" });
    await jar.get(await loginAtProvider(url, { login: address }));
    const [account] = (await (await jar.get("/api/auth/list-accounts")).json()) as { accountId: string }[];
    await testEnv.DB.prepare(
      "UPDATE account SET access_token = NULL, refresh_token = NULL, access_token_expires_at = NULL WHERE account_id = ?",
    )
      .bind(account?.accountId)
      .run();
    const res = await jar.post("/api/auth/account-info", { accountId: account?.accountId });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "ACCESS_TOKEN_NOT_FOUND", message: "Access token not found" });
  });
});

describe("every error body carries code and message (as better-call derives them)", () => {
  it("change-email to the same address and update-user with nothing to update", async () => {
    const { jar, email: address } = await signUp();
    const same = await jar.post("/api/auth/change-email", { newEmail: address });
    expect(same.status).toBe(400);
    expect(await same.json()).toEqual({ code: "EMAIL_IS_THE_SAME", message: "Email is the same" });
    const nothing = await jar.post("/api/auth/update-user", {});
    expect(await nothing.json()).toEqual({ code: "NO_FIELDS_TO_UPDATE", message: "No fields to update" });
  });

  it("a 401 without a session carries {code, message} too, on the admin, core and token endpoints (1.3.34 sends no body: decision 023)", async () => {
    const anonymous = new CookieJar();
    for (const res of [
      await anonymous.get("/api/auth/admin/list-users"),
      await anonymous.get("/api/auth/list-sessions"),
      await anonymous.post("/api/auth/get-access-token", { providerId: "huggingface" }),
    ]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
    }
  });
});

describe("reset requests, link-social, refresh-token and the OAuth callback, as 1.3.34", () => {
  it("/forget-password: {status:true} when a mail went out, the reset message for an unknown address", async () => {
    const { email: address } = await signUp();
    const known = await new CookieJar().post("/api/auth/forget-password", { email: address });
    expect(await known.json()).toEqual({ status: true });
    expect((await lastMail(address))?.subject).toBe("Reset your password");
    const unknown = await new CookieJar().post("/api/auth/forget-password", { email: uniqueEmail("ghost") });
    expect(await unknown.json()).toEqual({
      status: true,
      message: "If this email exists in our system, check your email for the reset link",
    });
  });

  it("link-social in redirect mode answers {url, redirect} (1.3.34 adds status only when linked by ID token)", async () => {
    const { jar: cookieJar } = await signUp();
    const jar = new Jar();
    for (const [k, v] of cookieJar.cookies) jar.cookies.set(k, v);
    const res = await jar.post("/api/auth/link-social", { provider: "huggingface", callbackURL: "/profile" });
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["redirect", "url"]);
    expect(body.redirect).toBe(true);
  });

  it("the callback sends device_id on with the code to the token endpoint", async () => {
    const jar = new Jar();
    const { url } = await startFlow(jar, "/api/auth/sign-in/social", { provider: "huggingface" });
    const back = new URL(await loginAtProvider(url, { login: email("device") }));
    back.searchParams.set("device_id", "device-123");
    const bodies: string[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init);
      if (request.url.endsWith("/oauth/token")) bodies.push(await request.clone().text());
      return realFetch(request);
    });
    const res = await jar.get(back.pathname + back.search);
    expect(res.headers.get("location")).toBe("/dashboard");
    expect(bodies).toHaveLength(1);
    expect(new URLSearchParams(bodies[0]).get("device_id")).toBe("device-123");
  });

  it("an unexpected failure in the callback redirects with error=internal_server_error, never a 500", async () => {
    const jar = new Jar();
    const { url } = await startFlow(jar, "/api/auth/sign-in/social", { provider: "huggingface" });
    const back = new URL(await loginAtProvider(url, { login: email("broken") }));
    const res = await fetchIn(failingEnv(/FROM account\b/), back.pathname + back.search, {}, jar);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${BASE_URL}/api/auth/error?error=internal_server_error`);
  });

  it("asks Microsoft Graph for the profile photo at SPEC §9's size (48) and keeps it as the image", async () => {
    const env = { ...testEnv, MICROSOFT_CLIENT_ID: "ms-client", MICROSOFT_CLIENT_SECRET: "ms-secret" } as Env;
    const ctx = new AuthContext(new Request(`${BASE_URL}/api/auth/callback/microsoft`), env);
    const provider = await getProvider(ctx, "microsoft", `${BASE_URL}/api/auth/callback/microsoft`);
    const asked: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      asked.push(String(input instanceof Request ? input.url : input));
      return new Response(new Uint8Array([0xff, 0xd8, 0xff]), { headers: { "content-type": "image/jpeg" } });
    });
    const info = await provider?.userInfo(
      {
        accessToken: "graph-token",
        refreshToken: null,
        idToken: null,
        accessTokenExpiresAt: null,
        refreshTokenExpiresAt: null,
        scopes: [],
        raw: {},
      },
      { sub: "ms-1", email: "ms@example.test", name: "M S" },
    );
    expect(asked).toEqual(["https://graph.microsoft.com/v1.0/me/photos/48x48/$value"]);
    expect(info?.user.image).toBe("data:image/jpeg;base64,/9j/");
  });
});
