/**
 * Issue 26, defence in depth: answers name no internals. tRPC error answers carry no stack trace
 * and an unexpected failure's own message outside `vite dev`; every answer carries a
 * Content-Security-Policy (portal pages a nonce policy: e2e/csp.test.ts checks it in Chromium).
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";
import { API_POLICY, applySecurityHeaders, pagePolicy } from "../../worker/http/headers";
import { createContext } from "../../worker/trpc/context";
import { publicProcedure, router } from "../../worker/trpc/init";
import { makeOrg, member } from "../fixtures";
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

  it("keeps a media download's sandbox on top of the API policy, and never lets an answer weaken it (adversarial 7)", async () => {
    const org = await makeOrg();
    const organizer = await member(org, "organizer");
    const bytes = new Uint8Array(64);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const form = new FormData();
    form.append("file", new File([bytes], "cover.png", { type: "image/png" }));
    const up = await appFetch("/api/media", {
      method: "POST",
      body: form,
      headers: { cookie: organizer.jar.header(), origin: BASE_URL },
    });
    expect(up.status).toBe(201);
    const { url } = (await up.json()) as { url: string };
    for (const method of ["GET", "HEAD"]) {
      const res = await appFetch(url, { method });
      expect(res.status, method).toBe(200);
      const policy = (res.headers.get("content-security-policy") ?? "").split(/;\s*/);
      expect(policy, method).toContain("sandbox");
      expect(policy, method).toContain("default-src 'none'");
      expect(policy, method).toContain("frame-ancestors 'none'");
    }
    const etag = (await appFetch(url)).headers.get("etag") ?? "";
    const notModified = await appFetch(url, { headers: { "if-none-match": etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("content-security-policy")).toContain("sandbox");
    // A policy that does not start from the API's (a handler's mistake) is replaced by it.
    const headers = new Headers({ "content-type": "image/png", "content-security-policy": "default-src *" });
    applySecurityHeaders(headers, new URL(BASE_URL), null);
    expect(headers.get("content-security-policy")).toBe(API_POLICY);
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
