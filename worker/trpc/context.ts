import { getSessionFromRequest } from "../auth";
import { getConfig } from "../config";
import { getDb } from "../db/client";

export interface CreateContextOptions {
  request: Request;
  env: Env;
  ctx?: ExecutionContext;
  /** Headers merged into the response (Set-Cookie from a session refresh, caching hints). */
  resHeaders: Headers;
}

export async function createContext({ request, env, ctx, resHeaders }: CreateContextOptions) {
  const auth = await getSessionFromRequest(request, env).catch((error) => {
    // A broken session store must not turn every query into a 500: treat it as signed out.
    console.error("session lookup failed", error);
    return null;
  });
  return {
    env,
    db: getDb(env),
    config: getConfig(env),
    request,
    resHeaders,
    session: auth?.session ?? null,
    user: auth?.user ?? null,
    ip: request.headers.get("cf-connecting-ip") ?? null,
    /** Work that may finish after the response (cache fills); awaited when there is no request context. */
    waitUntil: (p: Promise<unknown>) => (ctx ? ctx.waitUntil(p) : p),
  };
}

export type Context = Awaited<ReturnType<typeof createContext>>;
