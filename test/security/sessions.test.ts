/**
 * Issue 26, "Sessions and requests": sign-out, ban and demotion take effect at once for every write
 * and every admin check (docs/decisions/018-sessions-and-requests.md). Each test replays the
 * request that found the defect: the old cookies, including the signed `session_data` cookie cache
 * that still says "signed in" for up to cookie.cacheMaxAge, sent again after the change.
 */
import { afterEach, describe, expect, it } from "vitest";
import { __setAuthClock, getSessionFromRequest } from "../../worker/auth";
import { sha256Hex, verifyCookieValue } from "../../worker/auth/crypto";
import { createContext } from "../../worker/trpc/context";
import { CookieJar, makeAdmin, PASSWORD } from "../auth/jar";
import { callerFor, makeOrg, member } from "../fixtures";
import { appFetch, BASE_URL, call, codeOf, testEnv, trpcError, trpcHttp } from "../helpers";

/** A copy of a jar's cookies: what a browser (or an attacker who kept them) still holds. */
function copyOf(jar: CookieJar) {
  const copy = new CookieJar();
  for (const [k, v] of jar.cookies) copy.cookies.set(k, v);
  return copy;
}

/** Signs the jar in again so it holds a fresh session_token and session_data (the cookie cache). */
async function withCookieCache(jar: CookieJar, email: string) {
  const res = await jar.post("/api/auth/sign-in/email", { email, password: PASSWORD });
  expect(res.status).toBe(200);
  expect(jar.cookies.has("better-auth.session_data")).toBe(true);
  return jar;
}

const newTag = () => ({ name: `t-${crypto.randomUUID().slice(0, 8)}`, color: "#0f766e" });

async function tagCount(orgId: string) {
  const row = await testEnv.DB.prepare("SELECT count(*) AS n FROM donor_tag WHERE organization_id = ?")
    .bind(orgId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("sign-out, ban and demotion take effect at once for every write and every admin check", () => {
  it("an owner who signed out: a mutation sent with the old cookies (session_data included) → UNAUTHORIZED", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const jar = await withCookieCache(owner.jar, owner.email);
    // The cookies as they were before signing out: the cache in them is signed and not expired.
    const old = copyOf(jar);
    expect(await codeOf(call(await callerFor(old), "donors.tags.create", newTag()))).toBe("OK");
    expect((await jar.post("/api/auth/sign-out")).status).toBe(200);

    expect(await codeOf(call(await callerFor(old), "donors.tags.create", newTag()))).toBe("UNAUTHORIZED");
    const overHttp = await trpcHttp(old, "donors.tags.create", newTag());
    expect(overHttp.status).toBe(401);
    expect((await trpcError(overHttp))?.code).toBe("UNAUTHORIZED");
    expect(await tagCount(org)).toBe(1);
  });

  it("a member banned by a platform admin (auth admin API): the banned user's mutation → refused", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const jar = await withCookieCache(owner.jar, owner.email);
    const admin = await makeAdmin();
    const ban = await admin.jar.post("/api/auth/admin/ban-user", {
      userId: owner.user.id,
      banReason: "abuse",
    });
    expect(ban.status).toBe(200);

    const code = await codeOf(call(await callerFor(jar), "donors.tags.create", newTag()));
    expect(["UNAUTHORIZED", "FORBIDDEN"]).toContain(code);
    const overHttp = await trpcHttp(jar, "donors.tags.create", newTag());
    expect([401, 403]).toContain(overHttp.status);
    expect(await tagCount(org)).toBe(0);
  });

  it("a platform admin demoted to user (set-role): an admin query with the still-valid cookie cache → FORBIDDEN", async () => {
    const demoted = await makeAdmin();
    // The demoted admin's browser holds a session_data cookie that says role "admin".
    expect(demoted.jar.cookies.has("better-auth.session_data")).toBe(true);
    expect(await codeOf(call(await callerFor(demoted.jar), "organization.all", undefined))).toBe("OK");
    const other = await makeAdmin();
    const res = await other.jar.post("/api/auth/admin/set-role", { userId: demoted.user.id, role: "user" });
    expect(res.status).toBe(200);

    expect(await codeOf(call(await callerFor(demoted.jar), "organization.all", undefined))).toBe("FORBIDDEN");
    expect(await codeOf(call(await callerFor(demoted.jar), "badges.definitions", undefined))).toBe(
      "FORBIDDEN",
    );
    const overHttp = await trpcHttp(demoted.jar, "organization.all", undefined, { method: "GET" });
    expect(overHttp.status).toBe(403);
  });

  it("reads the session from D1 once per HTTP request, however many calls a batch carries", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const jar = await withCookieCache(owner.jar, owner.email);
    const request = new Request(`${BASE_URL}/api/trpc`, { headers: { cookie: jar.header() } });
    const ctx = await createContext({ request, env: testEnv, resHeaders: new Headers() });
    // The context memoizes the fresh read: every call of one request shares one promise.
    expect(ctx.freshAuth()).toBe(ctx.freshAuth());
    expect((await ctx.freshAuth())?.user.id).toBe(owner.user.id);
    // A batch of two mutations over HTTP answers both.
    const batch = await testFetchBatch(
      jar,
      ["donors.tags.create", "donors.tags.create"],
      [newTag(), newTag()],
    );
    expect(batch.status).toBe(200);
    expect(await tagCount(org)).toBe(2);
  });

  it("an owner who signed out: the old cookies no longer upload media or download an export", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const jar = await withCookieCache(owner.jar, owner.email);
    const old = copyOf(jar);
    expect((await jar.post("/api/auth/sign-out")).status).toBe(200);
    const headers = { cookie: old.header(), origin: BASE_URL };
    const exportRes = await appFetch("/api/export/donations.csv", { headers });
    expect(exportRes.status).toBe(401);
    const form = new FormData();
    form.set(
      "file",
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])], "a.png"),
    );
    const upload = await appFetch("/api/media", { method: "POST", headers, body: form });
    expect(upload.status).toBe(401);
  });
});

describe("revocation and a password change end the sessions they name, within the cookie-cache window (issue 20)", () => {
  /** The owner signed in twice: `a` (the cookies that will be replayed, cache included) and `b`. */
  async function twoSessions() {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const a = await withCookieCache(owner.jar, owner.email);
    const b = new CookieJar();
    const signIn = await b.post("/api/auth/sign-in/email", { email: owner.email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    const aToken = (
      (await (await a.get("/api/auth/get-session?disableCookieCache=true")).json()) as {
        session: { token: string };
      }
    ).session.token;
    // The replayed cookies work before the change.
    const old = copyOf(a);
    expect(await codeOf(call(await callerFor(old), "donors.tags.create", newTag()))).toBe("OK");
    return { org, owner, a, b, old, aToken };
  }

  async function expectEnded(old: CookieJar) {
    expect(old.cookies.has("better-auth.session_data")).toBe(true);
    expect(await codeOf(call(await callerFor(old), "donors.tags.create", newTag()))).toBe("UNAUTHORIZED");
    const overHttp = await trpcHttp(old, "donors.tags.create", newTag());
    expect(overHttp.status).toBe(401);
    expect((await trpcError(overHttp))?.code).toBe("UNAUTHORIZED");
  }

  it("revoke-session of another of the owner's sessions: its old cookies → UNAUTHORIZED", async () => {
    const { b, old, aToken, org } = await twoSessions();
    const res = await b.post("/api/auth/revoke-session", { token: aToken });
    expect(await res.json()).toEqual({ status: true });
    await expectEnded(old);
    expect(await codeOf(call(await callerFor(b), "donors.tags.create", newTag()))).toBe("OK");
    expect(await tagCount(org)).toBe(2);
  });

  it("revoke-other-sessions: every other session's old cookies → UNAUTHORIZED, the caller's still work", async () => {
    const { b, old } = await twoSessions();
    expect(await (await b.post("/api/auth/revoke-other-sessions")).json()).toEqual({ status: true });
    await expectEnded(old);
    expect(await codeOf(call(await callerFor(b), "donors.tags.create", newTag()))).toBe("OK");
  });

  it("revoke-sessions: the caller's own old cookies → UNAUTHORIZED too", async () => {
    const { a, old } = await twoSessions();
    expect(await (await a.post("/api/auth/revoke-sessions")).json()).toEqual({ status: true });
    await expectEnded(old);
  });

  it("change-password with revokeOtherSessions: the other sessions and the caller's old cookies → UNAUTHORIZED; its new session works", async () => {
    const { b, old } = await twoSessions();
    const bBefore = copyOf(b);
    const res = await b.post("/api/auth/change-password", {
      currentPassword: PASSWORD,
      newPassword: "a brand new passphrase",
      revokeOtherSessions: true,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { token: string | null }).token).toMatch(/^[A-Za-z0-9]{32}$/);
    await expectEnded(old);
    expect(await codeOf(call(await callerFor(bBefore), "donors.tags.create", newTag()))).toBe("UNAUTHORIZED");
    expect(await codeOf(call(await callerFor(b), "donors.tags.create", newTag()))).toBe("OK");
  });
});

/** A tRPC batch POST as httpBatchLink sends it: `?batch=1`, body `{ "0": {json}, "1": {json} }`. */
async function testFetchBatch(jar: CookieJar, paths: string[], inputs: unknown[]) {
  const body = Object.fromEntries(inputs.map((input, i) => [String(i), { json: input }]));
  return appFetch(`/api/trpc/${paths.join(",")}?batch=1`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE_URL, cookie: jar.header() },
    body: JSON.stringify(body),
  });
}

/**
 * Issue 53, spec audit 18: a session near expiry is slid by whichever portal read reaches D1 —
 * get-session, a tRPC call, a page rendered on the server — and the new cookies go back on that
 * answer, as get-session's do. The warm reads (cookie cache, KV) stay as they are: no D1 read, no
 * write; a session not yet due is read, not written.
 */
describe("every portal read slides a session near expiry", () => {
  const DAY = 86_400_000;
  afterEach(() => __setAuthClock(null));

  /** A member whose caches are gone, so the next read goes to D1 (cookie cache dropped, KV copy deleted). */
  async function pastTheCaches(jar: CookieJar) {
    const token = await verifyCookieValue(
      decodeURIComponent(jar.cookies.get("better-auth.session_token") ?? ""),
      testEnv.AUTH_SECRET,
    );
    const hash = sha256Hex(token ?? "");
    await testEnv.KV.delete(`session:${hash}`);
    jar.cookies.delete("better-auth.session_data");
    return async () =>
      (await testEnv.DB.prepare("SELECT expires_at, updated_at FROM session WHERE token_hash = ?")
        .bind(hash)
        .first<{ expires_at: number; updated_at: number }>()) as { expires_at: number; updated_at: number };
  }

  const sessionCookie = (res: Response) =>
    res.headers.getSetCookie().find((l) => l.startsWith("better-auth.session_token="));

  it("a tRPC read over HTTP slides a session past its update age and sends the new cookies; a warm read writes nothing", async () => {
    const org = await makeOrg();
    const { jar } = await member(org, "viewer");
    const start = Date.now();
    const row = await pastTheCaches(jar);
    const before = await row();
    __setAuthClock(() => start + 2 * DAY);
    const res = await trpcHttp(jar, "organization.current", undefined, { method: "GET" });
    expect(res.status).toBe(200);
    const after = await row();
    expect(after.expires_at).toBeGreaterThan(start + 8.9 * DAY);
    expect(after.expires_at).toBeGreaterThan(before.expires_at);
    const cookie = sessionCookie(res) ?? "";
    expect(Number(/Max-Age=(\d+)/.exec(cookie)?.[1])).toBeGreaterThan(6.9 * 86_400);
    expect(res.headers.getSetCookie().some((l) => l.startsWith("better-auth.session_data="))).toBe(true);
    jar.store(res);
    // The next read is warm (the cookie cache it was given): nothing written, no new session cookie.
    const warm = await trpcHttp(jar, "organization.current", undefined, { method: "GET" });
    expect(warm.status).toBe(200);
    expect(sessionCookie(warm)).toBeUndefined();
    expect(await row()).toEqual(after);
  });

  it("a session not yet due, read from D1, is not written; one kept without 'remember me' is never slid", async () => {
    const org = await makeOrg();
    const viewer = await member(org, "viewer");
    const row = await pastTheCaches(viewer.jar);
    const before = await row();
    const res = await trpcHttp(viewer.jar, "organization.current", undefined, { method: "GET" });
    expect(res.status).toBe(200);
    expect(sessionCookie(res)).toBeUndefined();
    expect(await row()).toEqual(before);

    const forgetful = new CookieJar();
    await forgetful.post("/api/auth/sign-in/email", {
      email: viewer.email,
      password: PASSWORD,
      rememberMe: false,
    });
    const start = Date.now();
    const kept = await pastTheCaches(forgetful);
    const once = await kept();
    __setAuthClock(() => start + 0.9 * DAY);
    const quiet = await trpcHttp(forgetful, "organization.current", undefined, { method: "GET" });
    expect(quiet.status).toBe(200);
    expect(sessionCookie(quiet)).toBeUndefined();
    expect(await kept()).toEqual(once);
  });

  it("one request reads its session once however many calls it makes (SSR's in-process calls): one slide, one set of cookies", async () => {
    const org = await makeOrg();
    const { jar } = await member(org, "viewer");
    const start = Date.now();
    const row = await pastTheCaches(jar);
    __setAuthClock(() => start + 2 * DAY);
    const request = new Request(`${BASE_URL}/dashboard`, { headers: { cookie: jar.header() } });
    const sink = new Headers();
    const [a, b] = await Promise.all([
      getSessionFromRequest(request, testEnv, { cookies: sink }),
      getSessionFromRequest(request, testEnv, { cookies: sink }),
    ]);
    expect(a?.user.id).toBeTruthy();
    expect(b).toBe(a);
    expect(sink.getSetCookie().filter((l) => l.startsWith("better-auth.session_token="))).toHaveLength(1);
    expect((await row()).expires_at).toBeGreaterThan(start + 8.9 * DAY);
    // Reads that cannot send cookies (an export's, the limiter's) never slide: the slide would be lost.
    const other = await member(org, "viewer");
    const otherRow = await pastTheCaches(other.jar);
    const untouched = await otherRow();
    __setAuthClock(() => start + 2 * DAY);
    await getSessionFromRequest(new Request(BASE_URL, { headers: { cookie: other.jar.header() } }), testEnv);
    await getSessionFromRequest(new Request(BASE_URL, { headers: { cookie: other.jar.header() } }), testEnv, {
      fresh: true,
    });
    expect(await otherRow()).toEqual(untouched);
  });
});
