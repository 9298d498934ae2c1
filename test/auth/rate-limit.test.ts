import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { countInMemory, MEMORY_KEYS_MAX, memoryKeyCount, rateLimitKeyIp } from "../../worker/auth/guards";
import { testEnv } from "../helpers";
import worker from "../worker";

// A separate env object gets its own validated config: rate limits on, as in production.
const limitedEnv = { ...testEnv, RATE_LIMIT_ENABLED: "true" } as unknown as Env;

function signIn(ip: string) {
  return worker.fetch(
    new Request("http://localhost:3000/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": ip },
      body: JSON.stringify({ email: "nobody@example.test", password: "whatever-it-is" }),
    }),
    limitedEnv,
    createExecutionContext(),
  );
}

describe("rate limits (better-auth defaults: credential paths in D1, the others in memory)", () => {
  it("allows 3 sign-ins per 10 s per address, then 429 with X-Retry-After", async () => {
    const ip = "203.0.113.7";
    const concurrent = await Promise.all([signIn(ip), signIn(ip), signIn(ip)]);
    expect(concurrent.map((r) => r.status)).toEqual([401, 401, 401]);
    const fourth = await signIn(ip);
    expect(fourth.status).toBe(429);
    expect(await fourth.json()).toEqual({ message: "Too many requests. Please try again later." });
    const retry = Number(fourth.headers.get("x-retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(10);
    // Another client is not affected.
    expect((await signIn("203.0.113.8")).status).toBe(401);
  });

  it("the in-memory counts of the other paths (decision 036): a fixed window per key, and never more than MEMORY_KEYS_MAX keys", () => {
    const t = 1_000_000;
    expect(countInMemory("k|/get-session", t, 10_000).count).toBe(1);
    expect(countInMemory("k|/get-session", t + 9_999, 10_000).count).toBe(2);
    // The window has passed: the count restarts, from the new request's time.
    const next = countInMemory("k|/get-session", t + 10_000, 10_000);
    expect(next).toEqual({ count: 1, start: t + 10_000 });
    // A flood of addresses: the live keys are kept up to the bound, the oldest go first.
    for (let i = 0; i < MEMORY_KEYS_MAX + 50; i++)
      countInMemory(`flood-${i}|/get-session`, t + 10_000, 10_000);
    expect(memoryKeyCount()).toBeLessThanOrEqual(MEMORY_KEYS_MAX);
    expect(countInMemory(`flood-${MEMORY_KEYS_MAX + 49}|/get-session`, t + 10_000, 10_000).count).toBe(2);
    // Expired keys go before live ones.
    countInMemory("late|/get-session", t + 30_000, 10_000);
    expect(countInMemory(`flood-${MEMORY_KEYS_MAX + 49}|/get-session`, t + 30_000, 10_000).count).toBe(1);
  });

  it("groups IPv6 clients by /64", () => {
    expect(rateLimitKeyIp("2001:db8:1:2:aaaa::1")).toBe(rateLimitKeyIp("2001:db8:1:2:bbbb::2"));
    expect(rateLimitKeyIp("2001:db8:1:3::1")).not.toBe(rateLimitKeyIp("2001:db8:1:2::1"));
  });
});
