import { describe, expect, it } from "vitest";
import { makeQueryClient, retryDelay, shouldRetryMutation, shouldRetryQuery, statusOf } from "./query-client";

const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });
const trpcError = (httpStatus: number) => Object.assign(new Error("trpc"), { data: { httpStatus } });

describe("query retry policy (SPEC §9)", () => {
  it("never retries 4xx answers, whatever their shape", () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) {
      expect(shouldRetryQuery(0, httpError(status))).toBe(false);
      expect(shouldRetryQuery(0, trpcError(status))).toBe(false);
      expect(shouldRetryMutation(0, trpcError(status))).toBe(false);
    }
  });

  it("retries 5xx and network errors up to three times", () => {
    const err = httpError(503);
    expect([0, 1, 2, 3].map((n) => shouldRetryQuery(n, err))).toEqual([true, true, true, false]);
    const network = new TypeError("Failed to fetch");
    expect(statusOf(network)).toBeUndefined();
    expect(shouldRetryQuery(2, network)).toBe(true);
    expect(shouldRetryQuery(3, network)).toBe(false);
  });

  it("backs off from 1 s doubling up to 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it("retries a mutation once", () => {
    const err = httpError(500);
    expect(shouldRetryMutation(0, err)).toBe(true);
    expect(shouldRetryMutation(1, err)).toBe(false);
  });

  it("builds the client with the spec's freshness and refetch defaults", () => {
    const client = makeQueryClient();
    const q = client.getDefaultOptions().queries;
    expect(q?.staleTime).toBe(5 * 60_000);
    expect(q?.gcTime).toBe(10 * 60_000);
    expect(q?.refetchOnWindowFocus).toBe(false);
    expect(q?.refetchOnReconnect).toBe(true);
    expect(client.getDefaultOptions().mutations?.retryDelay).toBe(1000);
  });
});
