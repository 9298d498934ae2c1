import { afterEach, describe, expect, it } from "vitest";
import { __setAuthClock } from "../../worker/auth";
import { email, ISSUER_A, Jar, loginAtProvider, socialSignIn, startFlow } from "./helpers";

afterEach(() => __setAuthClock(null));

const errorOf = (res: Response) => new URL(res.headers.get("location") ?? "", "http://localhost:3000");

describe("OAuth state (SPEC §4/§9)", () => {
  it("refuses a replayed callback: the state is consumed by the first", async () => {
    const jar = new Jar();
    const { url } = await startFlow(jar, "/api/auth/sign-in/social", { provider: "huggingface" });
    const callback = await loginAtProvider(url, { login: email("replay") });
    const stateCookie = jar.cookies.get("better-auth.state") ?? "";
    const first = await jar.get(callback);
    expect(first.headers.get("location")).toBe("/dashboard");
    jar.cookies.set("better-auth.state", stateCookie);
    const second = await jar.get(callback);
    expect(errorOf(second).pathname).toBe("/api/auth/error");
    expect(errorOf(second).searchParams.get("error")).toBe("please_restart_the_process");
  });

  it("refuses an expired state (fake clock past 10 minutes)", async () => {
    const jar = new Jar();
    const { url } = await startFlow(jar, "/api/auth/sign-in/social", {
      provider: "huggingface",
      errorCallbackURL: "/login",
    });
    const callback = await loginAtProvider(url, { login: email("slow") });
    const now = Date.now();
    __setAuthClock(() => now + 10 * 60_000 + 1_000);
    const res = await jar.get(callback);
    // An expired state no longer says where errors go: the error page.
    expect(errorOf(res).searchParams.get("error")).toBe("please_restart_the_process");
    expect(jar.cookies.has("better-auth.session_token")).toBe(false);
  });

  it("accepts a state just inside its 10 minutes", async () => {
    const jar = new Jar();
    const { url } = await startFlow(jar, "/api/auth/sign-in/social", { provider: "huggingface" });
    const callback = await loginAtProvider(url, { login: email("inside") });
    const now = Date.now();
    __setAuthClock(() => now + 9 * 60_000);
    expect((await jar.get(callback)).headers.get("location")).toBe("/dashboard");
  });

  it("refuses a tampered state, a missing state, and a state from another browser", async () => {
    const jar = new Jar();
    const { url } = await startFlow(jar, "/api/auth/sign-in/social", { provider: "huggingface" });
    const callback = new URL(await loginAtProvider(url, { login: email("tamper") }));
    const state = callback.searchParams.get("state") ?? "";
    const tampered = new URL(callback);
    tampered.searchParams.set("state", `${state.slice(0, -1)}${state.endsWith("A") ? "B" : "A"}`);
    expect(errorOf(await jar.get(tampered.toString())).searchParams.get("error")).toBe(
      "please_restart_the_process",
    );

    const noState = new URL(callback);
    noState.searchParams.delete("state");
    const missing = errorOf(await jar.get(noState.toString()));
    expect(missing.pathname).toBe("/api/auth/error");
    // 1.3.34's redirect as it is: the code in `state`, no `error` parameter.
    expect(missing.searchParams.get("state")).toBe("state_not_found");

    // The genuine callback opened in a browser that did not start the flow (login CSRF).
    const stranger = new Jar();
    const res = await stranger.get(callback.toString());
    expect(errorOf(res).searchParams.get("error")).toBe("please_restart_the_process");
    expect(stranger.cookies.has("better-auth.session_token")).toBe(false);
  });

  it("refuses a state used on another provider's callback", async () => {
    const jar = new Jar();
    const { url } = await startFlow(jar, "/api/auth/sign-in/social", {
      provider: "huggingface",
      errorCallbackURL: "/login",
    });
    const callback = new URL(await loginAtProvider(url, { login: email("cross") }));
    callback.pathname = "/api/auth/callback/gitlab";
    expect((await jar.get(callback.toString())).headers.get("location")).toBe(
      "/login?error=invalid_callback_request",
    );
  });

  it("passes provider errors and descriptions on; no code and bad codes have their own codes", async () => {
    const jar = new Jar();
    const { url } = await startFlow(jar, "/api/auth/sign-in/social", {
      provider: "gitlab",
      errorCallbackURL: "/login?from=social",
    });
    const back = await jar.get(await loginAtProvider(url, { login: email("cancel"), abort: true }));
    const to = errorOf(back);
    expect(to.pathname).toBe("/login");
    expect(to.searchParams.get("from")).toBe("social");
    expect(to.searchParams.get("error")).toBe("access_denied");
    expect(to.searchParams.get("error_description")).toBe("End-User aborted interaction");

    const noCode = await startFlow(jar, "/api/auth/sign-in/social", {
      provider: "gitlab",
      errorCallbackURL: "/login",
    });
    const cb = new URL(await loginAtProvider(noCode.url, { login: email("nocode") }));
    cb.searchParams.delete("code");
    expect((await jar.get(cb.toString())).headers.get("location")).toBe("/login?error=no_code");

    const badCode = await startFlow(jar, "/api/auth/sign-in/social", {
      provider: "gitlab",
      errorCallbackURL: "/login",
    });
    const cb2 = new URL(await loginAtProvider(badCode.url, { login: email("badcode") }));
    cb2.searchParams.set("code", "not-a-real-code");
    expect((await jar.get(cb2.toString())).headers.get("location")).toBe("/login?error=invalid_code");
  });

  it("turns a form_post callback into a GET with the same parameters", async () => {
    const jar = new Jar();
    const res = await jar.fetch("/api/auth/callback/apple", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "code=abc&state=xyz&user=%7B%7D",
    });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("location") ?? "");
    expect(to.pathname).toBe("/api/auth/callback/apple");
    expect(Object.fromEntries(to.searchParams)).toEqual({ code: "abc", state: "xyz", user: "{}" });
  });
});

describe("access tokens (SPEC §7/§9)", () => {
  async function signedIn(provider = "huggingface") {
    const jar = new Jar();
    const res = await socialSignIn(jar, provider, { login: email("tokens") });
    expect(res.status).toBe(302);
    return jar;
  }

  const userinfoStatus = async (accessToken: string) =>
    (await fetch(`${ISSUER_A}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } }))
      .status;

  it("returns the stored access token while it is valid", async () => {
    const jar = await signedIn();
    const res = await jar.post("/api/auth/get-access-token", { providerId: "huggingface" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      accessToken: string;
      accessTokenExpiresAt: string;
      scopes: string[];
      idToken: string;
    };
    expect(await userinfoStatus(body.accessToken)).toBe(200);
    expect(Date.parse(body.accessTokenExpiresAt)).toBeGreaterThan(Date.now() + 3500_000);
    expect(body.scopes).toEqual(expect.arrayContaining(["openid", "email", "profile"]));
    expect(body.idToken.split(".")).toHaveLength(3);
    const again = (await (
      await jar.post("/api/auth/get-access-token", { providerId: "huggingface" })
    ).json()) as {
      accessToken: string;
    };
    expect(again.accessToken).toBe(body.accessToken);
  });

  it("refreshes at the provider when the token expires in under 5 s", async () => {
    const jar = await signedIn("gitlab");
    const before = (await (
      await jar.post("/api/auth/get-access-token", { providerId: "gitlab" })
    ).json()) as {
      accessToken: string;
      accessTokenExpiresAt: string;
    };
    const expiresAt = Date.parse(before.accessTokenExpiresAt);
    __setAuthClock(() => expiresAt - 4_000);
    const after = (await (await jar.post("/api/auth/get-access-token", { providerId: "gitlab" })).json()) as {
      accessToken: string;
      accessTokenExpiresAt: string;
    };
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(Date.parse(after.accessTokenExpiresAt)).toBe(expiresAt - 4_000 + 3600_000);
    expect(await userinfoStatus(after.accessToken)).toBe(200);
    // 6 s before expiry is still fresh enough: no refresh.
    __setAuthClock(() => Date.parse(after.accessTokenExpiresAt) - 6_000);
    const kept = (await (await jar.post("/api/auth/get-access-token", { providerId: "gitlab" })).json()) as {
      accessToken: string;
    };
    expect(kept.accessToken).toBe(after.accessToken);
  });

  it("refresh-token returns the provider's raw result (1.3.34's shape) and stores it", async () => {
    const jar = await signedIn();
    const res = await jar.post("/api/auth/refresh-token", { providerId: "huggingface" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    // What @better-auth/core's refreshAccessToken makes of the token response, in its order; no ids.
    expect(Object.keys(body)).toEqual([
      "accessToken",
      "refreshToken",
      "tokenType",
      "scopes",
      "idToken",
      "accessTokenExpiresAt",
    ]);
    expect(body.tokenType).toMatch(/^bearer$/i);
    expect(body.scopes).toEqual(expect.arrayContaining(["openid"]));
    expect(Date.parse(body.accessTokenExpiresAt ?? "")).toBeGreaterThan(Date.now());
    expect(body.refreshToken).toBeTruthy();
    expect(body.idToken?.split(".")).toHaveLength(3);
    expect(await userinfoStatus(body.accessToken ?? "")).toBe(200);
    const stored = (await (
      await jar.post("/api/auth/get-access-token", { providerId: "huggingface" })
    ).json()) as {
      accessToken: string;
    };
    expect(stored.accessToken).toBe(body.accessToken);
  });

  it("account-info reads the provider's profile with the stored token", async () => {
    const jar = new Jar();
    const address = email("info");
    await socialSignIn(jar, "huggingface", { login: address });
    const accounts = (await (await jar.get("/api/auth/list-accounts")).json()) as { accountId: string }[];
    const res = await jar.post("/api/auth/account-info", { accountId: accounts[0]?.accountId });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: Record<string, unknown>; data: Record<string, unknown> };
    expect(body.user).toMatchObject({ id: address, email: address, emailVerified: true });
    expect(body.data).toMatchObject({ sub: address, email: address });
    const missing = await jar.post("/api/auth/account-info", { accountId: "nope" });
    expect(await missing.json()).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
  });

  it("answers the contract's errors", async () => {
    const anonymous = await new Jar().post("/api/auth/get-access-token", { providerId: "huggingface" });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
    const jar = await signedIn();
    const unknown = await jar.post("/api/auth/get-access-token", { providerId: "myspace" });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { message: string }).message).toBe(
      "Provider myspace is not supported, or not found",
    );
    const noAccount = await jar.post("/api/auth/get-access-token", { providerId: "gitlab" });
    expect(await noAccount.json()).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
    const wrongId = await jar.post("/api/auth/refresh-token", {
      providerId: "huggingface",
      accountId: "someone",
    });
    expect(wrongId.status).toBe(400);
    const invalid = await jar.post("/api/auth/refresh-token", {});
    expect(await invalid.json()).toEqual({ code: "VALIDATION_ERROR", message: "Invalid body parameters" });
    // Another user's userId in the body does not reach their tokens: the session decides.
    const other = await signedIn("gitlab");
    const otherId = ((await (await other.get("/api/auth/get-session")).json()) as { user: { id: string } })
      .user.id;
    const cross = await jar.post("/api/auth/get-access-token", { providerId: "gitlab", userId: otherId });
    expect(cross.status).toBe(400);
  });
});
