import { describe, expect, it } from "vitest";
import { CookieJar, signUp } from "../auth/jar";
import { testEnv } from "../helpers";
import { email, ISSUER_A, Jar, loginAtProvider, providerTokens, socialSignIn, startFlow } from "./helpers";

/** A password user with a Jar holding their session. */
async function passwordUser(overrides: Record<string, string> = {}) {
  const address = email("pw");
  const s = await signUp(new CookieJar(), address);
  const jar = new Jar(overrides);
  for (const [k, v] of s.jar.cookies) jar.cookies.set(k, v);
  jar.cookies.delete("better-auth.session_data");
  return { jar, address, userId: s.user.id };
}

async function sessionUser(jar: Jar) {
  const res = await jar.get("/api/auth/get-session?disableCookieCache=true");
  return ((await res.json()) as { user: { id: string; email: string; emailVerified: boolean } } | null)?.user;
}

async function accounts(jar: Jar) {
  return (await (await jar.get("/api/auth/list-accounts")).json()) as {
    providerId: string;
    accountId: string;
  }[];
}

describe("sign-in of existing users (SPEC §5)", () => {
  it("links a verified provider e-mail to the existing user and marks the user verified", async () => {
    const { address, userId } = await passwordUser();
    const jar = new Jar();
    const res = await socialSignIn(jar, "huggingface", { login: address });
    expect(res.headers.get("location")).toBe("/dashboard");
    const user = await sessionUser(jar);
    expect(user?.id).toBe(userId);
    expect(user?.emailVerified).toBe(true);
    expect((await accounts(jar)).map((a) => a.providerId).sort()).toEqual(["credential", "huggingface"]);
  });

  it("refuses an unverified provider e-mail with account_not_linked (untrusted provider)", async () => {
    const { address, userId } = await passwordUser();
    const jar = new Jar();
    const res = await socialSignIn(
      jar,
      "huggingface",
      { login: address, emailVerified: false },
      { errorCallbackURL: "/login" },
    );
    expect(res.headers.get("location")).toBe("/login?error=account_not_linked");
    expect(jar.cookies.has("better-auth.session_token")).toBe(false);
    const row = await testEnv.DB.prepare("SELECT count(*) AS n FROM account WHERE user_id = ?")
      .bind(userId)
      .first();
    expect(row).toEqual({ n: 1 });
  });

  it("links an unverified e-mail when the provider is trusted", async () => {
    const { address, userId } = await passwordUser();
    const jar = new Jar({ SOCIAL_TRUSTED_PROVIDERS: "huggingface" });
    const res = await socialSignIn(jar, "huggingface", { login: address, emailVerified: false });
    expect(res.headers.get("location")).toBe("/dashboard");
    expect((await sessionUser(jar))?.id).toBe(userId);
    // Not verified: the provider did not say so.
    expect((await sessionUser(jar))?.emailVerified).toBe(false);
  });

  it("refuses linking when account linking is disabled", async () => {
    const { address } = await passwordUser();
    const jar = new Jar({ FEATURES_ACCOUNT_LINKING: "false" });
    const res = await socialSignIn(jar, "huggingface", { login: address });
    expect(res.headers.get("location")).toBe("http://localhost:3000/api/auth/error?error=account_not_linked");
  });

  it("refuses new users when sign-up is disabled, or implicit sign-up without requestSignUp", async () => {
    const off = new Jar({ SOCIAL_DISABLE_SIGN_UP: "true" });
    const res = await socialSignIn(
      off,
      "huggingface",
      { login: email("nosignup") },
      { errorCallbackURL: "/login" },
    );
    expect(res.headers.get("location")).toBe("/login?error=signup_disabled");
    const implicit = { SOCIAL_DISABLE_IMPLICIT_SIGN_UP: "true" };
    const refused = await socialSignIn(new Jar(implicit), "huggingface", { login: email("implicit") });
    expect(refused.headers.get("location")).toContain("error=signup_disabled");
    const asked = await socialSignIn(
      new Jar(implicit),
      "huggingface",
      { login: email("asked") },
      { requestSignUp: true },
    );
    expect(asked.headers.get("location")).toBe("/dashboard");
  });

  it("keeps banned users out with error=banned and the ban message", async () => {
    const { address, userId } = await passwordUser();
    await testEnv.DB.prepare("UPDATE user SET banned = 1 WHERE id = ?").bind(userId).run();
    const jar = new Jar();
    const res = await socialSignIn(jar, "huggingface", { login: address });
    const to = new URL(res.headers.get("location") ?? "");
    expect(to.pathname).toBe("/api/auth/error");
    expect(to.searchParams.get("error")).toBe("banned");
    expect(to.searchParams.get("error_description")).toContain("You have been banned");
    expect(jar.cookies.has("better-auth.session_token")).toBe(false);
  });

  it("still finds a user by the linked account when the provider e-mail changed", async () => {
    const sub = `sub-${Date.now().toString(36)}`;
    const jar = new Jar();
    await socialSignIn(jar, "huggingface", { login: sub, email: email("before") });
    const first = await sessionUser(jar);
    const again = new Jar();
    await socialSignIn(again, "huggingface", { login: sub, email: email("after") });
    expect((await sessionUser(again))?.id).toBe(first?.id);
  });
});

describe("ID-token sign-in", () => {
  it("verifies the provider's ID token and answers {redirect:false, token, user}", async () => {
    const address = email("idtoken");
    const t = await providerTokens(ISSUER_A, "huggingface", { login: address }, "nonce-1");
    const jar = new Jar();
    const res = await jar.post("/api/auth/sign-in/social", {
      provider: "huggingface",
      idToken: { token: t.id_token, nonce: "nonce-1", accessToken: t.access_token },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { redirect: boolean; token: string; user: { email: string } };
    expect(body.redirect).toBe(false);
    expect(body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.user.email).toBe(address);
    expect((await sessionUser(jar))?.email).toBe(address);
  });

  it("refuses a wrong nonce, a tampered token, a token for another client", async () => {
    const t = await providerTokens(ISSUER_A, "huggingface", { login: email("bad") }, "nonce-2");
    const jar = new Jar();
    const wrongNonce = await jar.post("/api/auth/sign-in/social", {
      provider: "huggingface",
      idToken: { token: t.id_token, nonce: "other" },
    });
    expect(wrongNonce.status).toBe(401);
    expect(await wrongNonce.json()).toEqual({ code: "INVALID_TOKEN", message: "Invalid token" });
    const [h, p, s] = t.id_token.split(".");
    const claims = JSON.parse(atob((p ?? "").replace(/-/g, "+").replace(/_/g, "/")));
    claims.email = "admin@almoner.test";
    const forged = `${h}.${btoa(JSON.stringify(claims)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}.${s}`;
    const tampered = await jar.post("/api/auth/sign-in/social", {
      provider: "huggingface",
      idToken: { token: forged },
    });
    expect(tampered.status).toBe(401);
    const otherAudience = new Jar({ HUGGINGFACE_CLIENT_ID: "someone-else" });
    const aud = await otherAudience.post("/api/auth/sign-in/social", {
      provider: "huggingface",
      idToken: { token: t.id_token },
    });
    expect(aud.status).toBe(401);
    expect(jar.cookies.has("better-auth.session_token")).toBe(false);
  });

  it("answers unknown providers and providers without ID tokens with the contract's 404s", async () => {
    const jar = new Jar({ GITHUB_CLIENT_ID: "gh", GITHUB_CLIENT_SECRET: "gh-secret" });
    const unknown = await jar.post("/api/auth/sign-in/social", { provider: "myspace" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: "PROVIDER_NOT_FOUND", message: "Provider not found" });
    const unconfigured = await jar.post("/api/auth/sign-in/social", { provider: "google" });
    expect(unconfigured.status).toBe(404);
    const noIdToken = await jar.post("/api/auth/sign-in/social", {
      provider: "github",
      idToken: { token: "x.y.z" },
    });
    expect(noIdToken.status).toBe(404);
    expect(await noIdToken.json()).toEqual({
      code: "ID_TOKEN_NOT_SUPPORTED",
      message: "id_token not supported",
    });
    // GitHub goes through arctic's GitHub class: its real authorization endpoint, no PKCE.
    const gh = (await (
      await jar.post("/api/auth/sign-in/social", { provider: "github", disableRedirect: true })
    ).json()) as {
      url: string;
      redirect: boolean;
    };
    expect(gh.redirect).toBe(false);
    expect(gh.url).toMatch(/^https:\/\/github\.com\/login\/oauth\/authorize\?/);
    expect(new URL(gh.url).searchParams.get("scope")).toBe("read:user user:email");
  });

  it("ignores *_ISSUER overrides in production", async () => {
    const jar = new Jar({ ENVIRONMENT: "production", APP_URL: "https://portal.example" });
    const res = await jar.post("/api/auth/sign-in/social", { provider: "gitlab", disableRedirect: true });
    const body = (await res.json()) as { url: string };
    expect(body.url).toMatch(/^https:\/\/gitlab\.com\/oauth\/authorize\?/);
    // huggingface has no default knob missing: the real endpoint is used.
    const hf = (await (
      await jar.post("/api/auth/sign-in/social", { provider: "huggingface", disableRedirect: true })
    ).json()) as {
      url: string;
    };
    expect(hf.url).toMatch(/^https:\/\/huggingface\.co\/oauth\/authorize\?/);
  });

  it("validates the body and the callback URLs", async () => {
    const jar = new Jar();
    const missing = await jar.post("/api/auth/sign-in/social", {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ code: "VALIDATION_ERROR", message: "Invalid body parameters" });
    const evil = await jar.post("/api/auth/sign-in/social", {
      provider: "huggingface",
      callbackURL: "https://evil.example/",
    });
    expect(evil.status).toBe(403);
    const evilError = await jar.post("/api/auth/sign-in/social", {
      provider: "huggingface",
      errorCallbackURL: "//evil.example",
    });
    expect(evilError.status).toBe(403);
  });
});

describe("link-social (SPEC §5)", () => {
  it("links by redirect and comes back to callbackURL; then unlinks", async () => {
    const { jar, address } = await passwordUser();
    const { url, redirect } = await startFlow(jar, "/api/auth/link-social", {
      provider: "gitlab",
      callbackURL: "/profile",
    });
    expect(redirect).toBe(true);
    const res = await jar.get(await loginAtProvider(url, { login: address }));
    expect(res.headers.get("location")).toBe("/profile");
    expect((await accounts(jar)).map((a) => a.providerId).sort()).toEqual(["credential", "gitlab"]);
    const audit = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE action = 'account.link' AND after LIKE '%gitlab%' AND actor_id = (SELECT id FROM user WHERE email = ?)",
    )
      .bind(address)
      .first();
    expect(audit).toEqual({ n: 1 });
    const unlink = await jar.post("/api/auth/unlink-account", { providerId: "gitlab" });
    expect(await unlink.json()).toEqual({ status: true });
    expect((await accounts(jar)).map((a) => a.providerId)).toEqual(["credential"]);
    const last = await jar.post("/api/auth/unlink-account", { providerId: "credential" });
    expect(last.status).toBe(400);
    expect(await last.json()).toEqual({
      code: "YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT",
      message: "You can't unlink your last account",
    });
    const gone = await jar.post("/api/auth/unlink-account", { providerId: "gitlab" });
    expect(gone.status).toBe(400);
  });

  it("sends the redirect-link refusals to errorCallbackURL", async () => {
    const { jar } = await passwordUser();
    const other = await startFlow(jar, "/api/auth/link-social", {
      provider: "gitlab",
      errorCallbackURL: "/profile",
    });
    const diff = await jar.get(await loginAtProvider(other.url, { login: email("different") }));
    expect(diff.headers.get("location")).toBe("/profile?error=email_doesn%27t_match");

    const { jar: jar2, address: address2 } = await passwordUser();
    const unverified = await startFlow(jar2, "/api/auth/link-social", {
      provider: "gitlab",
      errorCallbackURL: "/profile",
    });
    const res = await jar2.get(
      await loginAtProvider(unverified.url, { login: address2, emailVerified: false }),
    );
    expect(res.headers.get("location")).toBe("/profile?error=unable_to_link_account");

    // An account already linked to someone else.
    const taken = `taken-${Date.now().toString(36)}`;
    await socialSignIn(new Jar(), "gitlab", { login: taken, email: email("owner") });
    const { jar: jar3, address: address3 } = await passwordUser();
    const steal = await startFlow(jar3, "/api/auth/link-social", {
      provider: "gitlab",
      errorCallbackURL: "/profile",
    });
    const stolen = await jar3.get(await loginAtProvider(steal.url, { login: taken, email: address3 }));
    expect(stolen.headers.get("location")).toBe("/profile?error=account_already_linked_to_different_user");
  });

  it("links directly by ID token with the exact refusal messages", async () => {
    const { jar, address } = await passwordUser();
    const good = await providerTokens(ISSUER_A, "huggingface", { login: address });
    const ok = await jar.post("/api/auth/link-social", {
      provider: "huggingface",
      idToken: { token: good.id_token },
    });
    expect(await ok.json()).toEqual({ url: "", status: true, redirect: false });
    const again = await jar.post("/api/auth/link-social", {
      provider: "huggingface",
      idToken: { token: good.id_token },
    });
    expect(await again.json()).toEqual({ url: "", status: true, redirect: false });

    const diff = await providerTokens(ISSUER_A, "huggingface", { login: email("elsewhere") });
    const refused = await jar.post("/api/auth/link-social", {
      provider: "huggingface",
      idToken: { token: diff.id_token },
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      code: "LINKING_DIFFERENT_EMAILS_NOT_ALLOWED",
      message: "Account not linked - different emails not allowed",
    });
    const unverified = await providerTokens(ISSUER_A, "huggingface", {
      login: `u-${address}`,
      email: address,
      emailVerified: false,
    });
    const notAllowed = await jar.post("/api/auth/link-social", {
      provider: "huggingface",
      idToken: { token: unverified.id_token },
    });
    expect(notAllowed.status).toBe(401);
    expect(await notAllowed.json()).toEqual({
      code: "LINKING_NOT_ALLOWED",
      message: "Account not linked - linking not allowed",
    });
    // With different e-mails allowed by policy, the same token links.
    const lenient = new Jar({ FEATURES_ALLOW_DIFFERENT_EMAILS: "true" });
    for (const [k, v] of jar.cookies) lenient.cookies.set(k, v);
    const allowed = await lenient.post("/api/auth/link-social", {
      provider: "huggingface",
      idToken: { token: diff.id_token },
    });
    expect(await allowed.json()).toEqual({ url: "", status: true, redirect: false });
    // The first user now holds that account: nobody else can link it.
    const { jar: jar2 } = await passwordUser({ FEATURES_ALLOW_DIFFERENT_EMAILS: "true" });
    const taken = await jar2.post("/api/auth/link-social", {
      provider: "huggingface",
      idToken: { token: diff.id_token },
    });
    expect(taken.status).toBe(409);
  });

  it("needs a session", async () => {
    const res = await new Jar().post("/api/auth/link-social", { provider: "gitlab" });
    expect(res.status).toBe(401);
  });
});
