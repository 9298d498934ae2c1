/**
 * Logs you can follow (issue 22, worker/lib/request-log.ts): one JSON line per request with its
 * id, route, procedures, status, time, D1 queries and cache hits, and who acted as ids only; an
 * unexpected failure is a line of its own with the stack and the same request id, and the answer
 * carries that id for the user to quote.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createWorker } from "../../worker/app";
import { makeOrg, member } from "../fixtures";
import { BASE_URL } from "../helpers";

const logging = { ...env, LOG_REQUESTS: "true" } as Env;

async function send(
  worker: ReturnType<typeof createWorker>,
  path: string,
  init: RequestInit = {},
  on = logging,
) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(new URL(path, BASE_URL), init), on, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** A line's D1 query count. */
const queries = (line: Record<string, unknown> | undefined) =>
  (line?.d1 as { queries?: number } | undefined)?.queries ?? 0;

/** The JSON lines a console method printed. */
const lines = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls
    .map((c) => c[0])
    .filter((x): x is string => typeof x === "string" && x.startsWith("{"))
    .map((x) => JSON.parse(x) as Record<string, unknown>);

describe("one log line per request", () => {
  let log: ReturnType<typeof vi.spyOn>;
  let error: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    log = vi.spyOn(console, "log").mockImplementation(() => {});
    error = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it("says what ran, for whom (ids only), how long, and how many D1 queries", async () => {
    const org = await makeOrg();
    const m = await member(org, "owner");
    const worker = createWorker(null);
    const search = encodeURIComponent(JSON.stringify({ json: { q: m.email } }));
    const res = await send(worker, `/api/trpc/donors.list?input=${search}`, {
      headers: { cookie: m.jar.header(), "x-request-id": "support-ticket-42" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("support-ticket-42");
    expect(res.headers.get("server-timing")).toMatch(/d1;desc="\d+ queries";dur=[\d.]+/);
    const line = lines(log).find((l) => l.requestId === "support-ticket-42");
    expect(line).toMatchObject({
      level: "info",
      method: "GET",
      route: "/api/trpc/donors.list",
      procedures: ["donors.list"],
      status: 200,
      userId: m.user.id,
      organizationId: org,
      cache: { hits: 0, misses: 0 },
    });
    expect(queries(line)).toBeGreaterThan(1);
    expect(line?.ms).toBeGreaterThan(0);
    // No personal data: not the e-mail typed into the search, not the cookie.
    const text = JSON.stringify(line);
    expect(text).not.toContain(m.email);
    expect(text).not.toContain("session_token");
  });

  it("counts the dashboard cache's hits and misses", async () => {
    const org = await makeOrg();
    const m = await member(org, "owner");
    const worker = createWorker(null);
    const input = encodeURIComponent(JSON.stringify({ json: { days: 30 } }));
    for (const id of ["dash-1", "dash-2"])
      await send(worker, `/api/trpc/dashboard.summary?input=${input}`, {
        headers: { cookie: m.jar.header(), "x-request-id": id },
      });
    const [first, second] = ["dash-1", "dash-2"].map((id) => lines(log).find((l) => l.requestId === id));
    expect(first?.cache).toEqual({ hits: 0, misses: 1 });
    expect(second?.cache).toEqual({ hits: 1, misses: 0 });
    expect(queries(second)).toBeLessThan(queries(first));
  });

  it("makes its own id when the caller's is missing or not an id", async () => {
    const worker = createWorker(null);
    const res = await send(worker, "/api/auth/ok", { headers: { "x-request-id": 'x"},{"level":"forged' } });
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines(log).find((l) => l.requestId === id)).toMatchObject({ route: "/api/auth/ok", userId: null });
  });

  it("logs an unexpected failure with its stack and request id, and the answer carries the id", async () => {
    const worker = createWorker(() => {
      throw new Error("the page renderer broke");
    });
    const res = await send(worker, "/dashboard", { headers: { "x-request-id": "crash-1" } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: "INTERNAL_SERVER_ERROR",
      message: "Something went wrong!",
      requestId: "crash-1",
    });
    const failure = lines(error).find((l) => l.requestId === "crash-1");
    expect(failure).toMatchObject({ level: "error", where: "unhandled", message: "the page renderer broke" });
    expect(String(failure?.stack)).toContain("the page renderer broke");
    expect(lines(log).find((l) => l.requestId === "crash-1")).toMatchObject({ level: "error", status: 500 });
  });

  it("gives tRPC errors the request id, for the error screen", async () => {
    const org = await makeOrg();
    const m = await member(org, "viewer");
    const input = encodeURIComponent(JSON.stringify({ json: { id: "no-such-donor" } }));
    const res = await send(createWorker(null), `/api/trpc/donors.byId?input=${input}`, {
      headers: { cookie: m.jar.header(), "x-request-id": "missing-1" },
    });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { json: { data: { requestId?: string } } } };
    expect(body.error.json.data.requestId).toBe("missing-1");
  });

  it("writes no line for a session check answered from the cookie cache, and one for a check that read D1", async () => {
    const org = await makeOrg();
    const m = await member(org, "viewer");
    const worker = createWorker(null);
    const check = async (path: string, id: string) => {
      const res = await send(worker, path, { headers: { cookie: m.jar.header(), "x-request-id": id } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { user?: { id: string } }).user?.id).toBe(m.user.id);
      expect(res.headers.get("x-request-id")).toBe(id);
      return lines(log).find((l) => l.requestId === id);
    };
    // The jar holds the cookie cache sign-in issued: answered without D1, so no line of ours.
    expect(await check("/api/auth/get-session", "warm-check")).toBeUndefined();
    const cold = await check("/api/auth/get-session?disableCookieCache=true", "cold-check");
    expect(cold).toMatchObject({ route: "/api/auth/get-session", status: 200 });
    expect(queries(cold)).toBeGreaterThan(0);
    // A refusal is logged: list-sessions without a session answers 401.
    const signedOut = await send(worker, "/api/auth/list-sessions", {
      headers: { "x-request-id": "refused-1" },
    });
    expect(signedOut.status).toBe(401);
    expect(lines(log).find((l) => l.requestId === "refused-1")).toMatchObject({ status: 401 });
  });

  it("stays quiet with LOG_REQUESTS=false (the test suite), errors aside", async () => {
    await send(createWorker(null), "/api/auth/ok", { headers: { "x-request-id": "quiet-1" } }, env);
    expect(lines(log).some((l) => l.requestId === "quiet-1")).toBe(false);
  });
});
