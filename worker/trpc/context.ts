import { TRPCError } from "@trpc/server";
import { getSessionFromRequest, type SessionRecord, type UserRecord } from "../auth";
import { setRetryAfter } from "../auth/guards";
import { getConfig } from "../config";
import { callerKey, limitApi, TOO_MANY_REQUESTS } from "../http/api-limit";

export type RequestAuth = { session: SessionRecord; user: UserRecord } | null;

export interface CreateContextOptions {
  request: Request;
  env: Env;
  ctx?: ExecutionContext;
  /** Headers merged into the response (Set-Cookie from a session refresh, caching hints). */
  resHeaders: Headers;
  /**
   * Count the request against the API limiter (worker/http/api-limit.ts, decision 018): set for
   * HTTP requests to /api/trpc, not for SSR's in-process calls or test callers.
   */
  rateLimited?: boolean;
}

export async function createContext({
  request,
  env,
  ctx,
  resHeaders,
  rateLimited = false,
}: CreateContextOptions) {
  const auth = await getSessionFromRequest(request, env).catch((error) => {
    // A broken session store must not turn every query into a 500: treat it as signed out.
    console.error("session lookup failed", error);
    return null;
  });
  if (rateLimited) {
    const outcome = await limitApi(env, "trpc", callerKey(request, auth?.user.id));
    if (!outcome.ok) {
      setRetryAfter(resHeaders, outcome.retryAfter);
      throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: TOO_MANY_REQUESTS.message });
    }
  }
  let fresh: Promise<RequestAuth> | undefined;
  return {
    env,
    config: getConfig(env),
    request,
    resHeaders,
    session: auth?.session ?? null,
    user: auth?.user ?? null,
    /**
     * The session and user read from D1, past every cache (decision 018): what mutations and admin
     * procedures decide on, so a sign-out, ban or demotion holds at once. Read at most once per
     * HTTP request: a tRPC batch carrying several calls shares one promise.
     */
    freshAuth: (): Promise<RequestAuth> => {
      fresh ??= getSessionFromRequest(request, env, { fresh: true });
      return fresh;
    },
    ip: request.headers.get("cf-connecting-ip") ?? null,
    /** Work that may finish after the response (cache fills); awaited when there is no request context. */
    waitUntil: (p: Promise<unknown>) => (ctx ? ctx.waitUntil(p) : p),
  };
}

export type Context = Awaited<ReturnType<typeof createContext>>;
