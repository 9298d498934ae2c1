/**
 * Issue 26, "Sessions and requests": the origin gate and tRPC content types, open redirects, rate
 * limits (docs/decisions/018-sessions-and-requests.md). Every request goes through the worker's
 * fetch handler, as a browser or an attacker would send it.
 */

import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { TRPC_MAX_BATCH, TRPC_MAX_BODY_BYTES } from "@core/limits";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../app.config";
import { safeRedirect } from "../../src/lib/auth/guards";
import { CookieJar, PASSWORD, signUp, uniqueEmail } from "../auth/jar";
import { makeOrg, member } from "../fixtures";
import { appFetch, BASE_URL, testEnv, trpcError, trpcHttp } from "../helpers";
import worker from "../worker";

async function isMember(orgId: string, userId: string) {
  const row = await testEnv.DB.prepare(
    "SELECT count(*) AS n FROM membership WHERE organization_id = ? AND user_id = ?",
  )
    .bind(orgId, userId)
    .first<{ n: number }>();
  return (row?.n ?? 0) === 1;
}

/** A member who may leave (not the last owner), signed in, with the cookies a browser holds. */
async function organizerInOrg() {
  const org = await makeOrg();
  await member(org, "owner");
  const organizer = await member(org, "organizer");
  return { org, ...organizer };
}

async function fetchIn(env: Env, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(new URL(path, BASE_URL), init), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("one origin gate for every cookie-carrying state change", () => {
  it("the attack: a multipart form POST to organization.leave from a foreign site (Origin + Sec-Fetch-Site cross-site) → 403, membership kept", async () => {
    const { org, user, jar } = await organizerInOrg();
    const form = new FormData();
    form.set("anything", "1");
    const res = await appFetch("/api/trpc/organization.leave", {
      method: "POST",
      headers: { cookie: jar.header(), origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      body: form,
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    expect(await isMember(org, user.id)).toBe(true);
  });

  it("refuses each signal on its own: Sec-Fetch-Site cross-site or same-site, a foreign Origin, Origin null, a foreign Referer", async () => {
    const { org, user, jar } = await organizerInOrg();
    const cookie = jar.header();
    const cases: Record<string, string>[] = [
      { origin: BASE_URL, "sec-fetch-site": "cross-site" },
      { origin: BASE_URL, "sec-fetch-site": "same-site" },
      { origin: "https://evil.example" },
      { origin: "null" },
      { referer: "https://evil.example/page" },
      { referer: "not a url" },
    ];
    for (const headers of cases) {
      const res = await trpcHttp(jar, "organization.leave", undefined, {
        headers: { origin: "", ...headers },
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
    // And for the other cookie-authenticated surfaces: media upload, invitations, the auth API.
    const foreign = { cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" };
    expect(
      (await appFetch("/api/media", { method: "POST", headers: foreign, body: new FormData() })).status,
    ).toBe(403);
    expect(
      (await appFetch("/api/invitations/abcdefghijklmnop/accept", { method: "POST", headers: foreign }))
        .status,
    ).toBe(403);
    expect(
      (await appFetch("/api/auth/update-user", { method: "POST", headers: foreign, body: "{}" })).status,
    ).toBe(403);
    expect(await isMember(org, user.id)).toBe(true);
  });

  it("Origin null on /api/auth/sign-out with a cookie → 403 MISSING_OR_NULL_ORIGIN (1.3.34's answer), and the session lives on", async () => {
    const { jar } = await signUp();
    const res = await appFetch("/api/auth/sign-out", {
      method: "POST",
      headers: { cookie: jar.header(), origin: "null", "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: "MISSING_OR_NULL_ORIGIN", message: "Missing or null Origin" });
    const session = (await (await jar.get("/api/auth/get-session?disableCookieCache=true")).json()) as {
      user?: unknown;
    } | null;
    expect(session?.user).toBeTruthy();
  });

  it("same-origin requests still work: by Origin, by Referer alone, and a GET with Sec-Fetch-Site same-origin", async () => {
    const { jar } = await organizerInOrg();
    const sameOrigin = await trpcHttp(jar, "organization.current", undefined, {
      method: "GET",
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(sameOrigin.status).toBe(200);
    const byOrigin = await trpcHttp(jar, "donors.tags.create", { name: "by origin" });
    expect(byOrigin.status).toBe(200);
    const byReferer = await trpcHttp(
      jar,
      "donors.tags.create",
      { name: "by referer" },
      {
        headers: { origin: "", referer: `${BASE_URL}/donors` },
      },
    );
    expect(byReferer.status).toBe(200);
  });

  it("refuses a cookie-carrying POST that names neither Origin nor Referer on every path family (403 MISSING_OR_NULL_ORIGIN, as better-auth 1.3.34); nothing changes", async () => {
    const { org, user, jar } = await organizerInOrg();
    const cookie = jar.header();
    const missing = { code: "MISSING_OR_NULL_ORIGIN", message: "Missing or null Origin" };
    const json = { cookie, "content-type": "application/json" };
    const attempts: [string, RequestInit][] = [
      [
        "/api/trpc/organization.leave",
        { method: "POST", headers: json, body: JSON.stringify({ json: null }) },
      ],
      ["/api/auth/update-user", { method: "POST", headers: json, body: JSON.stringify({ name: "Renamed" }) }],
      ["/api/auth/sign-out", { method: "POST", headers: json, body: "{}" }],
      ["/api/media", { method: "POST", headers: { cookie }, body: new FormData() }],
      ["/api/invitations/abcdefghijklmnop/accept", { method: "POST", headers: { cookie } }],
    ];
    for (const [path, init] of attempts) {
      const res = await appFetch(path, init);
      expect(res.status, path).toBe(403);
      expect(await res.json(), path).toEqual(missing);
    }
    expect(await isMember(org, user.id)).toBe(true);
    const session = (await (await jar.get("/api/auth/get-session?disableCookieCache=true")).json()) as {
      user?: { name: string };
    } | null;
    expect(session?.user?.name).not.toBe("Renamed");
  });

  it("asks nothing of a POST without the app's cookies: a server-to-server call (the webhook) reaches its handler", async () => {
    const res = await appFetch("/api/webhooks/donations", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    // The webhook's own refusal (no signature), not the gate's.
    expect(res.status).not.toBe(403);
    const signIn = await appFetch("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.test", password: "wrong-password-1" }),
    });
    expect(signIn.status).toBe(401);
  });

  it("only the app's cookies count: a cross-site POST carrying a cookie the app never set (a CDN's) is not gated", async () => {
    const res = await appFetch("/api/webhooks/donations", {
      method: "POST",
      headers: {
        cookie: "__cf_bm=abc",
        origin: "https://processor.example",
        "sec-fetch-site": "cross-site",
        "content-type": "application/json",
      },
      body: "{}",
    });
    // The webhook's own answer (no signature), not the gate's 403.
    expect(res.status).not.toBe(403);
    const withSession = await appFetch("/api/webhooks/donations", {
      method: "POST",
      headers: {
        cookie: "__Secure-better-auth.session_token=x",
        origin: "https://processor.example",
        "content-type": "application/json",
      },
      body: "{}",
    });
    expect(withSession.status).toBe(403);
  });

  it("tRPC POSTs must be application/json: text/plain, form-urlencoded and multipart → 415 with a JSON error", async () => {
    const { org, user, jar } = await organizerInOrg();
    const envelope = JSON.stringify({ json: null });
    const bodies: [string | undefined, BodyInit][] = [
      ["text/plain", envelope],
      ["text/plain;charset=UTF-8", envelope],
      ["application/x-www-form-urlencoded", "json=null"],
      [
        undefined,
        (() => {
          const f = new FormData();
          f.set("json", "null");
          return f;
        })(),
      ],
    ];
    for (const [type, body] of bodies) {
      const res = await trpcHttp(jar, "organization.leave", undefined, {
        headers: type ? { "content-type": type } : {},
        body,
      });
      expect(res.status, type ?? "multipart").toBe(415);
      expect(await res.json()).toEqual({
        code: "UNSUPPORTED_MEDIA_TYPE",
        message: "tRPC requests must be sent as application/json",
      });
    }
    expect(await isMember(org, user.id)).toBe(true);
  });

  it("tRPC bodies over the limit are refused with 413 before they are read, also when chunked", async () => {
    const { jar } = await organizerInOrg();
    const big = JSON.stringify({ json: { note: "x".repeat(TRPC_MAX_BODY_BYTES) } });
    const declared = await trpcHttp(jar, "organization.leave", undefined, {
      body: big,
      headers: { "content-type": "application/json", "content-length": String(big.length) },
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message: `A request body holds at most ${TRPC_MAX_BODY_BYTES / (1024 * 1024)} MiB`,
    });
    // No length declared: the body streams in and the read stops at the limit with a 4xx. The
    // same body within the limit is a valid import check (an owner's), so only the limit refuses it.
    const owner = await member(await makeOrg(), "owner");
    const rows = (name: number, note: number) =>
      JSON.stringify({
        json: {
          kind: "donors",
          fileHash: "a".repeat(64),
          headers: ["Name", "Notes"],
          mapping: ["name", null],
          options: { currency: "USD", timeZone: "UTC" },
          rows: Array.from({ length: 500 }, (_, i) => ({
            row: i + 2,
            cells: ["A".repeat(name), "x".repeat(note)],
          })),
        },
      });
    const streamed = (body: string) => {
      const bytes = new TextEncoder().encode(body);
      return appFetch(
        new Request(`${BASE_URL}/api/trpc/imports.check`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: BASE_URL, cookie: owner.jar.header() },
          body: new ReadableStream<Uint8Array>({
            start(c) {
              for (let i = 0; i < bytes.length; i += 1 << 20) c.enqueue(bytes.subarray(i, i + (1 << 20)));
              c.close();
            },
          }),
          // @ts-expect-error workerd's Request takes duplex for a streamed body
          duplex: "half",
        }),
      );
    };
    // 500 rows of 9 000 characters (≈ 4.5 MB) pass; of 18 000 (≈ 9 MB, every cell within its own
    // 10 000-character limit) the body is over 8 MiB.
    expect((await streamed(rows(3, 9_000))).status).toBe(200);
    const chunked = await streamed(rows(8_000, 10_000));
    expect(chunked.status).toBeGreaterThanOrEqual(400);
    expect(chunked.status).toBeLessThan(500);
  });

  it("every plain HTTP route answers a method it does not take with 405 and Allow, before acting: an export sent by DELETE writes no audit row (adversarial 8)", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const routes: [string, string[]][] = [
      ["/api/export/organization.zip", ["GET"]],
      ["/api/export/donations.csv", ["GET"]],
      ["/api/organizations/my-memberships", ["GET"]],
      ["/api/receipts/abcdefgh12.pdf", ["GET"]],
      ["/api/donors/abcdefgh12/statement.pdf", ["GET"]],
      ["/api/invitations/abcdefghijklmnop1234", ["GET"]],
      ["/api/invitations/abcdefghijklmnop1234/accept", ["POST"]],
      ["/api/invitations/abcdefghijklmnop1234/decline", ["POST"]],
      ["/api/webhooks/donations", ["POST"]],
      ["/api/media", ["POST"]],
      ["/api/media/abcdefghijklmnop", ["GET", "HEAD"]],
      ["/api/dev/outbox", ["GET"]],
    ];
    const wrong: string[] = [];
    for (const [path, allowed] of routes)
      for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]) {
        if (allowed.includes(method)) continue;
        const res = await appFetch(path, {
          method,
          headers: { cookie: owner.jar.header(), origin: BASE_URL, "content-type": "application/json" },
          body: method === "GET" || method === "HEAD" ? undefined : "{}",
        });
        const allow = res.headers.get("allow");
        if (res.status !== 405 || allow !== allowed.join(", "))
          wrong.push(`${method} ${path}: ${res.status} Allow ${allow}`);
      }
    expect(wrong).toEqual([]);
    const audits = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND action LIKE '%export%'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(audits?.n).toBe(0);
    // The methods they take still answer.
    expect(
      (await appFetch("/api/export/donations.csv", { headers: { cookie: owner.jar.header() } })).status,
    ).toBe(200);
  });

  it("a tRPC mutation sent by GET stays refused with 405", async () => {
    const { org, user, jar } = await organizerInOrg();
    const res = await trpcHttp(jar, "organization.leave", undefined, { method: "GET" });
    expect(res.status).toBe(405);
    expect((await trpcError(res))?.code).toBe("METHOD_NOT_SUPPORTED");
    expect(await isMember(org, user.id)).toBe(true);
  });
});

/** Values that a naive prefix check lets through, or that a browser resolves to another host. */
const HOSTILE = [
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "//evil.example",
  " //evil.example",
  "\t//evil.example",
  "https://evil.example/x",
  "https:evil.example",
  "http://localhost.evil.example:3000/",
  "https://localhost:3000/dashboard",
  "javascript:alert(1)",
  "JavaScript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "ftp://localhost:3000/x",
];

describe("open redirect: callback, redirect and error URLs are validated by parsing them as a browser does", () => {
  it("sign-in, sign-up, send-verification-email and verify-email refuse each hostile callbackURL with 403", async () => {
    const { email } = await signUp();
    for (const value of HOSTILE) {
      const signIn = await new CookieJar().post("/api/auth/sign-in/email", {
        email,
        password: PASSWORD,
        callbackURL: value,
      });
      expect(signIn.status, `sign-in ${JSON.stringify(value)}`).toBe(403);
      expect(await signIn.json()).toEqual({ code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" });
      const signUpRes = await new CookieJar().post("/api/auth/sign-up/email", {
        name: "Mallory",
        email: uniqueEmail("redirect"),
        password: PASSWORD,
        callbackURL: value,
      });
      expect(signUpRes.status, `sign-up ${JSON.stringify(value)}`).toBe(403);
      const mail = await new CookieJar().post("/api/auth/send-verification-email", {
        email,
        callbackURL: value,
      });
      expect(mail.status, `send-verification-email ${JSON.stringify(value)}`).toBe(403);
      const verify = await appFetch(
        `/api/auth/verify-email?token=whatever&callbackURL=${encodeURIComponent(value)}`,
        { redirect: "manual" },
      );
      expect(verify.status, `verify-email ${JSON.stringify(value)}`).toBe(403);
      expect(verify.headers.get("location")).toBeNull();
      const reset = await new CookieJar().post("/api/auth/request-password-reset", {
        email,
        redirectTo: value,
      });
      expect(reset.status, `request-password-reset ${JSON.stringify(value)}`).toBe(403);
      expect(await reset.json()).toEqual({ code: "INVALID_REDIRECTURL", message: "Invalid redirectURL" });
    }
  });

  it("a trusted https origin is not trusted over http (downgrade), nor is a look-alike host", async () => {
    const env = { ...testEnv, TRUSTED_ORIGINS: "https://partner.example" } as unknown as Env;
    const post = (callbackURL: string) =>
      fetchIn(env, "/api/auth/send-verification-email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: uniqueEmail("nobody"), callbackURL }),
      });
    expect((await post("https://partner.example/welcome")).status).toBe(200);
    expect((await post("http://partner.example/welcome")).status).toBe(403);
    expect((await post("https://partner.example.evil.com/welcome")).status).toBe(403);
    expect((await post("https://evil.com/https://partner.example")).status).toBe(403);
  });

  it("benign values pass, and every 302 verify-email answers stays on our origin", async () => {
    const { email } = await signUp();
    const ok = await new CookieJar().post("/api/auth/sign-in/email", {
      email,
      password: PASSWORD,
      callbackURL: "/dashboard?tab=x",
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ redirect: true, url: "/dashboard?tab=x" });
    // Decided: percent-encoded slashes are a path on our origin, which a browser never decodes
    // into an authority; "/.//evil.example" is also a path here, but must not come back as "//…".
    for (const value of ["/dashboard?tab=x", "%2F%2Fevil.example", "/.//evil.example", "/..//evil.example"]) {
      const res = await appFetch(
        `/api/auth/verify-email?token=not-a-token&callbackURL=${encodeURIComponent(value)}`,
        { redirect: "manual" },
      );
      expect(res.status, value).toBe(302);
      const location = res.headers.get("location") ?? "";
      const target = new URL(location, `${BASE_URL}/api/auth/verify-email`);
      expect(target.origin, `${value} → ${location}`).toBe(BASE_URL);
    }
  });

  it("a lone surrogate in any URL field is refused with 403 and its field's message before anything is written: no 500, no half-done sign-up (adversarial 2)", async () => {
    const me = await signUp();
    const unverified = me.email;
    const lone = ["/x\ud800", "/\udc00", `${BASE_URL}/x\ud800y`, "http://localhost:3000/\udfff"];
    const expectRefused = async (res: Response, label: string, field = "callbackURL") => {
      expect(res.status, label).toBe(403);
      expect(await res.json(), label).toEqual(
        field === "redirectTo"
          ? { code: "INVALID_REDIRECTURL", message: "Invalid redirectURL" }
          : field === "errorCallbackURL"
            ? { code: "INVALID_ERROR_CALLBACK_URL", message: "Invalid errorCallbackURL" }
            : { code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" },
      );
    };
    for (const value of lone) {
      const label = JSON.stringify(value);
      const address = uniqueEmail("surrogate");
      await expectRefused(
        await new CookieJar().post("/api/auth/sign-up/email", {
          name: "s",
          email: address,
          password: PASSWORD,
          callbackURL: value,
        }),
        `sign-up ${label}`,
      );
      // Nothing was written: the same address signs up afterwards.
      const users = await testEnv.DB.prepare("SELECT count(*) AS n FROM user WHERE email = ?")
        .bind(address)
        .first<{ n: number }>();
      expect(users?.n, `sign-up ${label}`).toBe(0);
      await expectRefused(
        await new CookieJar().post("/api/auth/sign-in/email", {
          email: me.email,
          password: PASSWORD,
          callbackURL: value,
        }),
        `sign-in ${label}`,
      );
      await expectRefused(
        await new CookieJar().post("/api/auth/send-verification-email", {
          email: unverified,
          callbackURL: value,
        }),
        `send-verification-email ${label}`,
      );
      for (const path of ["/api/auth/request-password-reset", "/api/auth/forget-password"])
        await expectRefused(
          await new CookieJar().post(path, { email: me.email, redirectTo: value }),
          `${path} ${label}`,
          "redirectTo",
        );
      await expectRefused(
        await me.jar.post("/api/auth/change-email", { newEmail: uniqueEmail("moved"), callbackURL: value }),
        `change-email ${label}`,
      );
      await expectRefused(
        await me.jar.post("/api/auth/delete-user", { callbackURL: value }),
        `delete-user ${label}`,
      );
      await expectRefused(
        await new CookieJar().post("/api/auth/sign-in/social", { provider: "github", callbackURL: value }),
        `sign-in/social ${label}`,
      );
      await expectRefused(
        await new CookieJar().post("/api/auth/sign-in/social", {
          provider: "github",
          callbackURL: "/dashboard",
          errorCallbackURL: value,
        }),
        `sign-in/social errorCallbackURL ${label}`,
        "errorCallbackURL",
      );
      await expectRefused(
        await me.jar.post("/api/auth/link-social", { provider: "github", callbackURL: value }),
        `link-social ${label}`,
      );
    }
    // The account is untouched, and the address sign-up refused still signs up.
    const still = await testEnv.DB.prepare("SELECT email FROM user WHERE id = ?")
      .bind(me.user.id)
      .first<{ email: string }>();
    expect(still?.email).toBe(me.email);
    const later = await new CookieJar().post("/api/auth/sign-up/email", {
      name: "s",
      email: uniqueEmail("surrogate"),
      password: PASSWORD,
      callbackURL: "/x",
    });
    expect(later.status).toBe(200);
    // A pair of surrogates is one character (an emoji), not a lone one: accepted.
    const pair = await new CookieJar().post("/api/auth/send-verification-email", {
      email: unverified,
      callbackURL: "/x\ud83d\ude00",
    });
    expect(pair.status).toBe(200);
  });

  it("the portal follows ?redirect= after sign-in only to a path on its own origin (the same rule)", () => {
    for (const value of HOSTILE) expect(safeRedirect(value), JSON.stringify(value)).toBe("/dashboard");
    for (const value of ["/.//evil.example", "/..//evil.example"]) {
      const path = safeRedirect(value);
      expect(new URL(path, BASE_URL).origin, `${value} → ${path}`).toBe(BASE_URL);
      expect(path.startsWith("//")).toBe(false);
    }
    expect(safeRedirect("/donors?page=2#top")).toBe("/donors?page=2#top");
    expect(safeRedirect("/dashboard?tab=x")).toBe("/dashboard?tab=x");
    // A broken percent-escape is an address the server answers 400 (issue 20, e2e/routes.test.ts).
    for (const value of ["%", "/donors%", "/a%ZZ?b=1"]) expect(safeRedirect(value), value).toBe("/dashboard");
    expect(safeRedirect("/donors?q=100%25")).toBe("/donors?q=100%25");
  });
});

/** A client address of its own per call, so runs and tests never share a bucket. */
function freshIp() {
  const b = crypto.getRandomValues(new Uint8Array(3));
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

/**
 * The binding counts in windows aligned to the wall clock (10 or 60 s): a burst that straddles an
 * edge would start a new window halfway. Start bursts well inside one.
 */
async function awayFromWindowEdge(periodSeconds = 60) {
  const into = Date.now() % (periodSeconds * 1000);
  if (into > periodSeconds * 1000 - 3000)
    await new Promise((r) => setTimeout(r, periodSeconds * 1000 - into + 50));
}

function expectRetryAfter(res: Response, max: number) {
  const retry = Number(res.headers.get("retry-after"));
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(max);
  expect(res.headers.get("x-retry-after")).toBe(res.headers.get("retry-after"));
}

/** The production configuration with nothing overridden: what a deploy with ENVIRONMENT=production runs. */
const productionEnv = { ...testEnv, ENVIRONMENT: "production" } as unknown as Env;

function signInFrom(env: Env, ip: string, email: string, password = "not the password") {
  return fetchIn(env, "/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": ip },
    body: JSON.stringify({ email, password }),
  });
}

describe("rate limits: on in production, per account, with Retry-After, and on every API surface", () => {
  it("the production configuration switches rate limits on by default; RATE_LIMIT_ENABLED still overrides", () => {
    expect(loadConfig({ ENVIRONMENT: "production" }).rateLimit.enabled).toBe(true);
    expect(loadConfig({}).rateLimit.enabled).toBe(false);
    expect(loadConfig({ ENVIRONMENT: "test" }).rateLimit.enabled).toBe(false);
    expect(loadConfig({ ENVIRONMENT: "production", RATE_LIMIT_ENABLED: "false" }).rateLimit.enabled).toBe(
      false,
    );
    expect(loadConfig({ ENVIRONMENT: "development", RATE_LIMIT_ENABLED: "true" }).rateLimit.enabled).toBe(
      true,
    );
  });

  it("an attacker guessing one password in production: the 4th wrong sign-in from one address within the window → 429 with Retry-After", async () => {
    const { email } = await signUp();
    const ip = freshIp();
    const first = await Promise.all([0, 1, 2].map(() => signInFrom(productionEnv, ip, email)));
    expect(first.map((r) => r.status)).toEqual([401, 401, 401]);
    const fourth = await signInFrom(productionEnv, ip, email);
    expect(fourth.status).toBe(429);
    expect(await fourth.json()).toEqual({ message: "Too many requests. Please try again later." });
    expectRetryAfter(fourth, loadConfig({ ENVIRONMENT: "production" }).rateLimit.strictWindow);
  });

  it("an attacker rotating addresses against one account is throttled per account (the e-mail as typed in any case)", async () => {
    const { email } = await signUp();
    const { accountMax, accountWindow } = loadConfig({ ENVIRONMENT: "production" }).rateLimit;
    for (let i = 0; i < accountMax; i++) {
      const spelled = i % 2 ? email.toUpperCase() : ` ${email} `;
      expect((await signInFrom(productionEnv, freshIp(), spelled)).status, `attempt ${i + 1}`).toBe(401);
    }
    const next = await signInFrom(productionEnv, freshIp(), email, PASSWORD);
    expect(next.status).toBe(429);
    expectRetryAfter(next, accountWindow);
    // Another account is not affected.
    const other = await signUp();
    expect((await signInFrom(productionEnv, freshIp(), other.email, PASSWORD)).status).toBe(200);
  });

  it("reset and verification mails for one address are counted per account across addresses", async () => {
    const { email } = await signUp();
    const { mailAccountMax, mailAccountWindow } = loadConfig({ ENVIRONMENT: "production" }).rateLimit;
    const ask = (path: string) =>
      fetchIn(productionEnv, path, {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": freshIp() },
        body: JSON.stringify({ email: email.toUpperCase() }),
      });
    const paths = [
      "/api/auth/request-password-reset",
      "/api/auth/send-verification-email",
      "/api/auth/forget-password",
    ];
    for (let i = 0; i < mailAccountMax; i++)
      expect((await ask(paths[i % paths.length] as string)).status).toBe(200);
    const next = await ask("/api/auth/request-password-reset");
    expect(next.status).toBe(429);
    expectRetryAfter(next, mailAccountWindow);
  });

  describe("the auth API's other paths (get-session, sign-out, …): counted in the isolate's memory, not in D1 (decision 036)", () => {
    /** The production configuration with the default rule at 3 per 10 s (100 in production). */
    const limited = { ...productionEnv, RATE_LIMIT_MAX: "3" } as unknown as Env;
    const rateRow = (key: string) =>
      testEnv.DB.prepare("SELECT count FROM rate_limit WHERE key = ?").bind(key).first<{ count: number }>();
    const getSession = (ip: string, jar?: CookieJar) =>
      fetchIn(limited, "/api/auth/get-session", {
        headers: { "cf-connecting-ip": ip, ...(jar ? { cookie: jar.header() } : {}) },
      });

    it("a 4th get-session from one address within the window → 429 with Retry-After; nothing is written to D1; another address is not affected", async () => {
      const { jar } = await signUp();
      const ip = freshIp();
      await awayFromWindowEdge(10);
      for (let i = 0; i < 3; i++) expect((await getSession(ip, jar)).status).toBe(200);
      const fourth = await getSession(ip, jar);
      expect(fourth.status).toBe(429);
      expect(await fourth.json()).toEqual({ message: "Too many requests. Please try again later." });
      expectRetryAfter(fourth, 10);
      expect(await rateRow(`${ip}|/get-session`)).toBeNull();
      expect((await getSession(freshIp(), jar)).status).toBe(200);
      // Per path: sign-out from the same address has a count of its own.
      const out = await fetchIn(limited, "/api/auth/sign-out", {
        method: "POST",
        headers: {
          "cf-connecting-ip": ip,
          cookie: jar.header(),
          origin: BASE_URL,
          "content-type": "application/json",
        },
        body: "{}",
      });
      expect(out.status).toBe(200);
    });

    it("sign-in beside it is still counted exactly in D1, per address and per account", async () => {
      const { email } = await signUp();
      const ip = freshIp();
      expect((await signInFrom(limited, ip, email)).status).toBe(401);
      expect((await rateRow(`${ip}|/sign-in/email`))?.count).toBe(1);
      expect((await rateRow(`account:sign-in|${email.toLowerCase()}`))?.count).toBe(1);
      expect(await rateRow(`${ip}|/get-session`)).toBeNull();
    });
  });

  describe("the API limiter (Cloudflare's Rate Limiting binding; here one with a limit of 3 a minute)", () => {
    const limited = {
      ...testEnv,
      RATE_LIMIT_ENABLED: "true",
      API_RATE_LIMITER: testEnv.TEST_RATE_LIMITER,
      EXPORT_RATE_LIMITER: testEnv.TEST_RATE_LIMITER,
      WEBHOOK_RATE_LIMITER: testEnv.TEST_RATE_LIMITER,
    } as unknown as Env;

    it("tRPC: a member's 4th request → 429 with Retry-After, in tRPC's error shape; another member is not affected", async () => {
      const org = await makeOrg();
      const a = await member(org, "owner");
      const b = await member(org, "organizer");
      const ip = freshIp();
      const get = (jar: CookieJar) =>
        fetchIn(
          limited,
          `/api/trpc/organization.current?input=${encodeURIComponent(JSON.stringify({ json: null }))}`,
          {
            headers: { cookie: jar.header(), "cf-connecting-ip": ip },
          },
        );
      await awayFromWindowEdge();
      for (let i = 0; i < 3; i++) expect((await get(a.jar)).status).toBe(200);
      const fourth = await get(a.jar);
      expect(fourth.status).toBe(429);
      expectRetryAfter(fourth, 60);
      expect((await trpcError(fourth))?.code).toBe("TOO_MANY_REQUESTS");
      // Keyed by the user, not the shared address.
      expect((await get(b.jar)).status).toBe(200);
    });

    it("tRPC without a session: keyed by the client address", async () => {
      const ip = freshIp();
      const health = (from: string) =>
        fetchIn(limited, "/api/trpc/system.health", { headers: { "cf-connecting-ip": from } });
      await awayFromWindowEdge();
      for (let i = 0; i < 3; i++) expect((await health(ip)).status).toBe(200);
      expect((await health(ip)).status).toBe(429);
      expect((await health(freshIp())).status).toBe(200);
    });

    it("exports, the webhook and invitations answer 429 past the limit", async () => {
      const org = await makeOrg();
      const owner = await member(org, "owner");
      // Exports share one count per user: the archive is asked for by another owner.
      const archivist = await member(org, "owner");
      const ip = freshIp();
      const surfaces: [string, () => Promise<Response>][] = [
        [
          "export",
          () => fetchIn(limited, "/api/export/donations.csv", { headers: { cookie: owner.jar.header() } }),
        ],
        [
          "organization archive",
          () =>
            fetchIn(limited, "/api/export/organization.zip", { headers: { cookie: archivist.jar.header() } }),
        ],
        [
          "webhook",
          () =>
            fetchIn(limited, "/api/webhooks/donations", {
              method: "POST",
              headers: { "content-type": "application/json", "cf-connecting-ip": ip },
              body: "{}",
            }),
        ],
        [
          "invitations",
          () =>
            fetchIn(limited, "/api/invitations/abcdefghijklmnopqrst", {
              headers: { cookie: owner.jar.header(), "cf-connecting-ip": ip },
            }),
        ],
      ];
      await awayFromWindowEdge();
      for (const [name, send] of surfaces) {
        for (let i = 0; i < 3; i++) expect((await send()).status, `${name} #${i + 1}`).not.toBe(429);
        const over = await send();
        expect(over.status, name).toBe(429);
        expect(await over.json()).toEqual({
          code: "TOO_MANY_REQUESTS",
          message: "Too many requests. Please try again later.",
        });
        expectRetryAfter(over, 60);
      }
    });

    it("is off where limits are off (development, the bench and e2e): no binding call, no 429", async () => {
      const off = { ...limited, RATE_LIMIT_ENABLED: "false" } as unknown as Env;
      const ip = freshIp();
      for (let i = 0; i < 6; i++) {
        const res = await fetchIn(off, "/api/trpc/system.health", { headers: { "cf-connecting-ip": ip } });
        expect(res.status).toBe(200);
      }
    });
  });
});

describe("tRPC batches", () => {
  // One HTTP request counts once against the API limiter, so its number of calls is bounded too
  // (core/limits.ts; the portal's batch link splits at the same size).
  const batch = (n: number) =>
    appFetch(
      `/api/trpc/${Array.from({ length: n }, () => "system.health").join(",")}?batch=1&input=${encodeURIComponent("{}")}`,
    );

  it(`answer up to ${TRPC_MAX_BATCH} calls in one request, and refuse more with 400`, async () => {
    expect((await batch(TRPC_MAX_BATCH)).status).toBe(200);
    const over = await batch(TRPC_MAX_BATCH + 1);
    expect(over.status).toBe(400);
  });
});
