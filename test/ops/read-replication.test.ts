/**
 * Reads near the user (issue 22, decision 027): every request runs its queries in D1 sessions that
 * start where it needs — writes and the auth paths on the primary, public pages at the nearest
 * replica, every other read at least as new as the bookmark the browser last saw, handed back on
 * each response. Locally the replica is the primary, so these tests watch where each session
 * starts (a recording wrapper around the real binding) and the bookmark's round trip, and read
 * their own writes across requests.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BOOKMARK_COOKIE, parseBookmarks } from "../../worker/db/databases";
import { makeOrg, member } from "../fixtures";
import { BASE_URL, testEnv } from "../helpers";
import worker from "../worker";

/** The directory binding, recording the constraint or bookmark each session starts from. */
function recordingDirectory() {
  const starts: string[] = [];
  const db = new Proxy(testEnv.DB, {
    get(target, key) {
      if (key === "withSession")
        return (start: string) => {
          starts.push(start);
          return target.withSession(start);
        };
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { starts, env: { ...testEnv, DB: db } as Env };
}

async function send(env: Env, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(new URL(path, BASE_URL), init), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The jar's cookies without the bookmark it kept: each test sends the bookmark it means to. */
const sessionOnly = (jar: { cookies: Map<string, string> }) =>
  [...jar.cookies]
    .filter(([k]) => k !== BOOKMARK_COOKIE)
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");

const trpcGet = (procedure: string, input: unknown) =>
  `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;

/** The bookmark cookie a response sets, parsed (none: {}). */
function cookieBookmarks(res: Response) {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${BOOKMARK_COOKIE}=`));
  return line
    ? parseBookmarks(decodeURIComponent(line.slice(BOOKMARK_COOKIE.length + 1).split(";")[0] ?? ""))
    : {};
}

describe("where a request's reads start", () => {
  it("a write starts on the primary and hands back the bookmark it reached, as a cookie and a header", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const { starts, env } = recordingDirectory();
    const res = await send(env, "/api/trpc/organization.setActive", {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE_URL, cookie: sessionOnly(owner.jar) },
      body: JSON.stringify({ json: { organizationId: org } }),
    });
    expect(res.status).toBe(200);
    expect(starts.length).toBeGreaterThan(0);
    expect(starts.every((s) => s === "first-primary")).toBe(true);
    const handed = cookieBookmarks(res);
    expect(handed.DB).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/);
    expect(res.headers.get("x-d1-bookmark")).toBe(`DB:${handed.DB}`);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(BOOKMARK_COOKIE)) ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
  });

  it("a portal read starts from the bookmark the browser sent, and never hands back an older one", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const bookmark = testEnv.DB.withSession("first-primary");
    await bookmark.prepare("SELECT 1").first();
    const sent = bookmark.getBookmark() as string;
    const { starts, env } = recordingDirectory();
    const res = await send(env, trpcGet("organization.mine", undefined), {
      headers: {
        cookie: `${sessionOnly(owner.jar)}; ${BOOKMARK_COOKIE}=${encodeURIComponent(`DB:${sent}`)}`,
      },
    });
    expect(res.status).toBe(200);
    expect(starts).toContain(sent);
    expect(starts).not.toContain("first-unconstrained");
    const back = parseBookmarks(res.headers.get("x-d1-bookmark"));
    expect((back.DB ?? "") >= sent).toBe(true);
  });

  it("an API client may carry the bookmark in the x-d1-bookmark header; the newer of header and cookie wins", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const older = "00000000-00000001-00000000-00000000000000000000000000000000";
    const s = testEnv.DB.withSession("first-primary");
    await s.prepare("SELECT 1").first();
    const newer = s.getBookmark() as string;
    const { starts, env } = recordingDirectory();
    await send(env, trpcGet("organization.mine", undefined), {
      headers: {
        cookie: `${sessionOnly(owner.jar)}; ${BOOKMARK_COOKIE}=${encodeURIComponent(`DB:${older}`)}`,
        "x-d1-bookmark": `DB:${newer}`,
      },
    });
    expect(starts).toContain(newer);
    expect(starts).not.toContain(older);
  });

  it("a read without a bookmark, or with a forged one, starts at the nearest copy and does not fail", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    for (const forged of [
      "",
      "DB:garbage",
      "DB:first-primary",
      "KV:00000000-00000001-00000000-00000000000000000000000000000000",
      "DB:'; DROP TABLE user; --",
    ]) {
      const { starts, env } = recordingDirectory();
      const res = await send(env, trpcGet("organization.mine", undefined), {
        headers: { cookie: `${sessionOnly(owner.jar)}; ${BOOKMARK_COOKIE}=${encodeURIComponent(forged)}` },
      });
      expect(res.status, forged).toBe(200);
      expect(starts, forged).toContain("first-unconstrained");
      expect(
        starts.every((s) => s === "first-unconstrained" || s === "first-primary"),
        forged,
      ).toBe(true);
    }
  });

  it("the auth paths read the primary whatever the browser sent", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const { starts, env } = recordingDirectory();
    const res = await send(env, "/api/auth/list-sessions", {
      headers: {
        cookie: `${sessionOnly(owner.jar)}; ${BOOKMARK_COOKIE}=${encodeURIComponent("DB:00000000-00000001-00000000-00000000000000000000000000000000")}`,
      },
    });
    expect(res.status).toBe(200);
    expect(starts.length).toBeGreaterThan(0);
    expect(starts.every((s) => s === "first-primary")).toBe(true);
    // The auth API's answers are better-auth 1.3's, cookies included (test/oracle/).
    expect(res.headers.getSetCookie().some((c) => c.startsWith(BOOKMARK_COOKIE))).toBe(false);
    expect(res.headers.get("x-d1-bookmark")).toBeNull();
  });

  it("a public page starts at the nearest replica and gives the visitor no cookie", async () => {
    const { starts, env } = recordingDirectory();
    const res = await send(
      env,
      trpcGet("campaigns.public", { organizationSlug: "nobody", slug: "nothing" }),
      {
        headers: {
          cookie: `${BOOKMARK_COOKIE}=${encodeURIComponent("DB:00000000-00000001-00000000-00000000000000000000000000000000")}`,
        },
      },
    );
    expect(res.status).toBe(404);
    expect(starts).toEqual(["first-unconstrained"]);
    expect(res.headers.getSetCookie().some((c) => c.startsWith(BOOKMARK_COOKIE))).toBe(false);
    expect(res.headers.get("x-d1-bookmark")).toBeNull();
  });

  it("reads a user's own write in the next request, carried by the cookie as a browser does", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const jar = owner.jar;
    const name = `Ada ${crypto.randomUUID().slice(0, 8)}`;
    const created = await jar.fetch("/api/trpc/donors.create", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ json: { data: { firstName: name, lastName: "Lovelace" } } }),
    });
    expect(created.status).toBe(200);
    // The jar kept the bookmark of the write, as the browser's cookie store does.
    const kept = parseBookmarks(decodeURIComponent(jar.cookies.get(BOOKMARK_COOKIE) ?? ""));
    expect(kept.DB).toBeTruthy();
    const { starts, env } = recordingDirectory();
    const listed = await send(env, trpcGet("donors.list", { q: name }), {
      headers: { cookie: jar.header() },
    });
    expect(starts).toContain(kept.DB);
    const body = (await listed.json()) as { result: { data: { json: { rows: { firstName: string }[] } } } };
    expect(body.result.data.json.rows.map((r) => r.firstName)).toEqual([name]);
  });
});
