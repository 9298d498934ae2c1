import { describe, expect, it } from "vitest";
import { appFetch, testEnv } from "../helpers";

describe("worker front door", () => {
  it("answers GET /api/auth/ok with {ok:true}", async () => {
    const res = await appFetch("/api/auth/ok");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it("sets security headers and a request id on every response", async () => {
    const res = await appFetch("/api/auth/ok");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("server-timing")).toMatch(/total;dur=/);
    // HSTS only makes sense over https.
    expect(res.headers.get("strict-transport-security")).toBeNull();
    const secure = await appFetch("https://almoner.example/api/auth/ok");
    expect(secure.headers.get("strict-transport-security")).toContain("max-age=");
  });

  it("echoes a caller's request id", async () => {
    const res = await appFetch("/api/auth/ok", { headers: { "x-request-id": "trace-123" } });
    expect(res.headers.get("x-request-id")).toBe("trace-123");
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const res = await appFetch("/api/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: "NOT_FOUND", message: "Not Found" });
  });

  it("serves system.health from D1 and KV through tRPC", async () => {
    const res = await appFetch("/api/trpc/system.health");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      result: {
        data: {
          json: { status: string; d1: { ok: boolean; value: { migrations: number } }; kv: { ok: boolean } };
        };
      };
    };
    const health = body.result.data.json;
    expect(health.status).toBe("ok");
    expect(health.d1.ok).toBe(true);
    const applied = await testEnv.DB.prepare("SELECT count(*) AS n FROM d1_migrations").first<{
      n: number;
    }>();
    expect(health.d1.value.migrations).toBe(applied?.n);
    expect(health.d1.value.migrations).toBeGreaterThan(0);
    expect(health.kv.ok).toBe(true);
  });

  it("refuses an unknown tRPC procedure with 404, not 500", async () => {
    const res = await appFetch("/api/trpc/system.nothing");
    expect(res.status).toBe(404);
  });
});

describe("root redirect", () => {
  it("sends a visitor without a session cookie from / to /login with a 302", async () => {
    const res = await appFetch("/", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
  });
});
