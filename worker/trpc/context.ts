import { TRPCError } from "@trpc/server";
import { type CookieSink, getSessionFromRequest, type SessionRecord, type UserRecord } from "../auth";
import { setRetryAfter } from "../auth/guards";
import { getConfig } from "../config";
import { callerKey, limitApi, TOO_MANY_REQUESTS } from "../http/api-limit";

type RequestAuth = { session: SessionRecord; user: UserRecord } | null;

interface CreateContextOptions {
  request: Request;
  env: Env;
  ctx?: ExecutionContext;
  /** Headers merged into the response (Set-Cookie from a session refresh, caching hints). */
  resHeaders: Headers;
  /** Where the session read's cookies go: `resHeaders` by default; SSR's in-process calls pass the page's. */
  cookies?: CookieSink;
  /** Count against the API limiter (decision 018): HTTP requests to /api/trpc only, not SSR or tests. */
  rateLimited?: boolean;
}

export async function createContext({
  request,
  env,
  ctx,
  resHeaders,
  cookies = resHeaders,
  rateLimited = false,
}: CreateContextOptions) {
  // Read as get-session reads it, so a due session slides; mutations decide on freshAuth, which never slides.
  const auth = await getSessionFromRequest(request, env, { cookies }).catch((error) => {
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
    /** Session and user from D1, past every cache (decision 018): what mutations and admin rungs decide on.
     * Read once per HTTP request, so a tRPC batch shares one promise. */
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
