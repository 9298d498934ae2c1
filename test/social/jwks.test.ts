/**
 * Key sets (SPEC §9): KV cache, cooldown after a failed fetch, key rotation, Cognito's maximum
 * ID-token age - against provider B of oidc-global.ts, which only this file uses (its counters
 * are this file's alone).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { __setAuthClock } from "../../worker/auth";
import { sha256Hex } from "../../worker/auth/crypto";
import { testEnv } from "../helpers";
import { email, ISSUER_B, Jar, providerTokens, socialSignIn } from "./helpers";

const JWKS_URI = `${ISSUER_B}/oauth/discovery/keys`;

async function jwksRequests() {
  return ((await (await fetch(`${ISSUER_B}/__dev/stats`)).json()) as { jwksRequests: number }).jwksRequests;
}

async function idTokenSignIn(token: string) {
  return new Jar().post("/api/auth/sign-in/social", { provider: "cognito", idToken: { token } });
}

beforeEach(async () => {
  await testEnv.KV.delete(`jwks:${sha256Hex(JWKS_URI)}`);
  await testEnv.KV.delete(`jwks-fail:${sha256Hex(JWKS_URI)}`);
  await fetch(`${ISSUER_B}/__dev/jwks-fail?on=0`);
});
afterEach(() => __setAuthClock(null));

describe("JWKS cache", () => {
  it("fetches the key set once and serves the next verification from KV", async () => {
    const t1 = await providerTokens(ISSUER_B, "cognito", { login: email("cache1") });
    const t2 = await providerTokens(ISSUER_B, "cognito", { login: email("cache2") });
    const before = await jwksRequests();
    expect((await idTokenSignIn(t1.id_token)).status).toBe(200);
    expect(await jwksRequests()).toBe(before + 1);
    expect((await idTokenSignIn(t2.id_token)).status).toBe(200);
    expect(await jwksRequests()).toBe(before + 1);
    // After 10 minutes the cache is stale and the set is fetched again.
    const now = Date.now();
    __setAuthClock(() => now + 10 * 60_000 + 1000);
    expect((await idTokenSignIn(t2.id_token)).status).toBe(200);
    expect(await jwksRequests()).toBe(before + 2);
  });

  it("backs off for 30 s after a failed fetch, then recovers", async () => {
    const t = await providerTokens(ISSUER_B, "cognito", { login: email("cooldown") });
    await fetch(`${ISSUER_B}/__dev/jwks-fail?on=1`);
    const now = Date.now();
    __setAuthClock(() => now);
    const before = await jwksRequests();
    const failed = await idTokenSignIn(t.id_token);
    expect(failed.status).toBe(401);
    expect(await failed.json()).toEqual({ code: "INVALID_TOKEN", message: "Invalid token" });
    expect(await jwksRequests()).toBe(before + 1);
    await fetch(`${ISSUER_B}/__dev/jwks-fail?on=0`);
    // Within the cooldown nobody asks the provider, even though it is back.
    __setAuthClock(() => now + 29_000);
    expect((await idTokenSignIn(t.id_token)).status).toBe(401);
    expect(await jwksRequests()).toBe(before + 1);
    __setAuthClock(() => now + 31_000);
    expect((await idTokenSignIn(t.id_token)).status).toBe(200);
    expect(await jwksRequests()).toBe(before + 2);
  });

  it("follows a key rotation: an unknown key id refetches the set (at most once per 30 s)", async () => {
    const old = await providerTokens(ISSUER_B, "cognito", { login: email("rot-old") });
    const now = Date.now();
    __setAuthClock(() => now);
    expect((await idTokenSignIn(old.id_token)).status).toBe(200);
    const before = await jwksRequests();
    await fetch(`${ISSUER_B}/__dev/rotate`);
    const fresh = await providerTokens(ISSUER_B, "cognito", { login: email("rot-new") });
    // Right after the last fetch the cached set is trusted: no refetch yet.
    expect((await idTokenSignIn(fresh.id_token)).status).toBe(401);
    expect(await jwksRequests()).toBe(before);
    __setAuthClock(() => now + 31_000);
    expect((await idTokenSignIn(fresh.id_token)).status).toBe(200);
    expect(await jwksRequests()).toBe(before + 1);
    // The retired key no longer verifies anything.
    expect((await idTokenSignIn(old.id_token)).status).toBe(401);
  });
});

describe("Cognito ID tokens", () => {
  it("refuses ID tokens older than 1 hour even when not expired", async () => {
    const t = await providerTokens(ISSUER_B, "cognito", { login: email("age") });
    const now = Date.now();
    __setAuthClock(() => now + 59 * 60_000);
    expect((await idTokenSignIn(t.id_token)).status).toBe(200);
    __setAuthClock(() => now + 61 * 60_000);
    expect((await idTokenSignIn(t.id_token)).status).toBe(401);
  });

  it("verifies the ID token of the redirect flow too", async () => {
    const jar = new Jar();
    const res = await socialSignIn(jar, "cognito", { login: email("redirect") });
    expect(res.headers.get("location")).toBe("/dashboard");
    // Cached keys still verify while the provider's key set is down…
    await fetch(`${ISSUER_B}/__dev/jwks-fail?on=1`);
    const cached = await socialSignIn(new Jar(), "cognito", { login: email("cached") });
    expect(cached.headers.get("location")).toBe("/dashboard");
    // …but without keys the callback's ID token cannot be verified, and nobody gets in.
    await testEnv.KV.delete(`jwks:${sha256Hex(JWKS_URI)}`);
    const jar2 = new Jar();
    const blocked = await socialSignIn(
      jar2,
      "cognito",
      { login: email("nokeys") },
      { errorCallbackURL: "/login" },
    );
    expect(blocked.headers.get("location")).toBe("/login?error=unable_to_get_user_info");
    expect(jar2.cookies.has("better-auth.session_token")).toBe(false);
  });
});
