import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { TRPCError } from "@trpc/server";
import type { CookieJar } from "./auth/jar";
import worker from "./worker";

export const BASE_URL = "http://localhost:3000";
export const testEnv = env;

/** Calls the worker's fetch handler in-process, exactly as a request from outside would. */
export async function appFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request =
    input instanceof Request ? new Request(input, init) : new Request(new URL(String(input), BASE_URL), init);
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** POSTs JSON the way the better-auth client does. */
export function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return appFetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

// What most suites share: a procedure called by its dotted path, the tRPC code a call ends with,
// and tRPC over real HTTP (the worker's fetch handler, so the origin gate, content types and status
// codes are exercised as a browser or an attacker would meet them).

/** "OK", the TRPCError code, or `THREW …` for anything that is not a refusal (a bug). */
export async function codeOf(p: Promise<unknown>) {
  try {
    await p;
    return "OK";
  } catch (e) {
    return e instanceof TRPCError ? e.code : `THREW ${String(e)}`;
  }
}

/** Calls `caller.a.b(input)` for the path "a.b". */
export function call(caller: unknown, path: string, input: unknown): Promise<unknown> {
  const fn = path.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], caller) as (
    i: unknown,
  ) => Promise<unknown>;
  return fn(input);
}

export interface TrpcHttpOptions {
  /** Defaults: POST for mutations; pass "GET" for queries. */
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A raw body instead of the superjson envelope `{ json: input }` (wrong content types, forms). */
  body?: BodyInit;
}

/**
 * One tRPC call over HTTP, as the portal's link sends it: same-origin `Origin`, JSON body
 * `{ json: input }` for POST, `?input=` for GET. Headers given override the defaults.
 */
export function trpcHttp(jar: CookieJar | null, path: string, input: unknown, opts: TrpcHttpOptions = {}) {
  const method = opts.method ?? "POST";
  const envelope = JSON.stringify({ json: input });
  const url =
    method === "GET" ? `/api/trpc/${path}?input=${encodeURIComponent(envelope)}` : `/api/trpc/${path}`;
  const headers: Record<string, string> = {
    origin: BASE_URL,
    ...(method === "POST" && opts.body === undefined ? { "content-type": "application/json" } : {}),
    ...(jar ? { cookie: jar.header() } : {}),
    ...opts.headers,
  };
  return appFetch(url, { method, headers, body: method === "POST" ? (opts.body ?? envelope) : undefined });
}

/** The `{ code, message }` of a tRPC error answer (superjson envelope), or null for a success. */
export async function trpcError(res: Response) {
  const body = (await res.json()) as {
    error?: { json: { message: string; data: { code: string; httpStatus: number; stack?: string } } };
  };
  if (!body.error) return null;
  return { ...body.error.json.data, message: body.error.json.message };
}
