/**
 * Issue 26, defence in depth: answers name no internals. tRPC error answers carry no stack trace
 * and an unexpected failure's own message outside `vite dev`; every answer carries a
 * Content-Security-Policy (portal pages a nonce policy: e2e/csp.test.ts checks it in Chromium).
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";
import { pagePolicy } from "../../worker/http/headers";
import { createContext } from "../../worker/trpc/context";
import { publicProcedure, router } from "../../worker/trpc/init";
import { makeOrg, member } from "../domain/fixtures";
import { appFetch, BASE_URL, testEnv, trpcError, trpcHttp } from "../helpers";

describe("tRPC error answers", () => {
  it("carry no stack trace (a refusal, as an org owner asking for a missing donation)", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const res = await trpcHttp(owner.jar, "donations.byId", { id: "missing" }, { method: "GET" });
    expect(res.status).toBe(404);
    const error = await trpcError(res);
    expect(error?.code).toBe("NOT_FOUND");
    expect(error).not.toHaveProperty("stack");
  });

  it("replace an unexpected failure's message (it may name SQL or tables) with the generic text", async () => {
    // The project's own procedure builders and error formatter, with a procedure that fails the
    // way a driver does: an Error whose message leaks internals.
    const leaky = router({
      boom: publicProcedure.query(() => {
        throw new Error("D1_ERROR: no such column: donor.secret_column at offset 42");
      }),
    });
    const request = new Request(`${BASE_URL}/api/trpc/boom`);
    const res = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: request,
      router: leaky,
      createContext: ({ resHeaders }) => createContext({ request, env: testEnv, resHeaders }),
    });
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(body).not.toContain("secret_column");
    expect(body).not.toContain("D1_ERROR");
    expect(body).not.toMatch(/"stack"/);
    expect(JSON.parse(body).error.json.message).toBe("Something went wrong!");
  });
});

describe("Content-Security-Policy", () => {
  it("is on every API answer and allows nothing to load or run from it", async () => {
    for (const path of [
      "/api/auth/ok",
      "/api/trpc/system.health",
      "/api/nothing",
      "/api/auth/error?error=x",
    ]) {
      const res = await appFetch(path);
      const policy = res.headers.get("content-security-policy") ?? "";
      expect(policy, path).toMatch(/^default-src 'none'/);
      expect(policy, path).not.toMatch(/script-src/);
      expect(policy, path).toContain("frame-ancestors 'none'");
    }
  });

  it("for a page allows script only from our origin or with the page's nonce", () => {
    const policy = pagePolicy("abc123==");
    const script = /script-src ([^;]*)/.exec(policy)?.[1];
    expect(script).toBe("'self' 'nonce-abc123=='");
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'self'");
  });
});
