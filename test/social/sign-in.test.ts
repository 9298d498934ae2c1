import { afterEach, describe, expect, it } from "vitest";
import { __setAuthClock } from "../../worker/auth";
import { decryptString, sha256Hex } from "../../worker/auth/crypto";
import { testEnv } from "../helpers";
import { email, ISSUER_A, Jar, loginAtProvider, socialSignIn } from "./helpers";

afterEach(() => __setAuthClock(null));

const SECRET = "test-secret-0123456789abcdef0123456789abcdef";

describe("redirect sign-in against a real OpenID provider", () => {
  it("creates a user through the generic OIDC client (huggingface → local issuer)", async () => {
    const jar = new Jar();
    const address = email("newbie");
    const res = await jar.post("/api/auth/sign-in/social", {
      provider: "huggingface",
      callbackURL: "/dashboard",
      newUserCallbackURL: "/welcome",
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; redirect: boolean };
    expect(body.redirect).toBe(true);
    expect(res.headers.get("location")).toBe(body.url);
    const auth = new URL(body.url);
    expect(auth.origin).toBe(ISSUER_A);
    expect(auth.pathname).toBe("/oauth/authorize");
    const state = auth.searchParams.get("state") ?? "";
    expect(state).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    expect(auth.searchParams.get("redirect_uri")).toBe("http://localhost:3000/api/auth/callback/huggingface");
    expect(auth.searchParams.get("scope")).toBe("openid profile email");
    expect(jar.cookies.has("better-auth.state")).toBe(true);

    const callback = await loginAtProvider(body.url, { login: address, emailVerified: true });
    const done = await jar.get(callback);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/welcome");
    expect(jar.cookies.has("better-auth.session_token")).toBe(true);
    expect(jar.cookies.has("better-auth.state")).toBe(false);

    const session = (await (await jar.get("/api/auth/get-session")).json()) as {
      user: { id: string; email: string; emailVerified: boolean; name: string };
    };
    expect(session.user.email).toBe(address);
    expect(session.user.emailVerified).toBe(true);
    const accounts = (await (await jar.get("/api/auth/list-accounts")).json()) as {
      providerId: string;
      accountId: string;
      scopes: string[];
    }[];
    expect(accounts).toEqual([
      expect.objectContaining({
        providerId: "huggingface",
        accountId: address,
        scopes: expect.arrayContaining(["openid", "email"]),
      }),
    ]);
    // Tokens are stored encrypted; they decrypt with the auth secret.
    const row = await testEnv.DB.prepare(
      "SELECT access_token, refresh_token, id_token, scope FROM account WHERE user_id = ?",
    )
      .bind(session.user.id)
      .first<{ access_token: string; refresh_token: string; id_token: string; scope: string }>();
    expect(row?.scope).toContain(",");
    const idToken = await decryptString(SECRET, row?.id_token ?? "");
    expect(idToken.split(".")).toHaveLength(3);
    expect(row?.id_token).not.toContain(idToken.slice(0, 20));
    expect(await decryptString(SECRET, row?.refresh_token ?? "")).toBeTruthy();
    const audit = await testEnv.DB.prepare(
      "SELECT action FROM audit_event WHERE entity_id = ? AND action = 'user.sign_up_social'",
    )
      .bind(session.user.id)
      .first();
    expect(audit).not.toBeNull();
    // The state is gone.
    const left = await testEnv.DB.prepare("SELECT count(*) AS n FROM verification WHERE identifier = ?")
      .bind(`oauth-state:${sha256Hex(state)}`)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("signs in through arctic's GitLab class pointed at the local issuer, to callbackURL", async () => {
    const jar = new Jar();
    const address = email("gitlab");
    const first = await socialSignIn(jar, "gitlab", { login: address });
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("/dashboard");
    const again = new Jar();
    const second = await socialSignIn(
      again,
      "gitlab",
      { login: address },
      { newUserCallbackURL: "/welcome" },
    );
    // Not a new user the second time: callbackURL, not newUserCallbackURL.
    expect(second.headers.get("location")).toBe("/dashboard");
    const a = (await (await jar.get("/api/auth/get-session")).json()) as { user: { id: string } };
    const b = (await (await again.get("/api/auth/get-session")).json()) as { user: { id: string } };
    expect(b.user.id).toBe(a.user.id);
  });
});
