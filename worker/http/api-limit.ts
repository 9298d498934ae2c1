/**
 * The API limiter (docs/decisions/018-sessions-and-requests.md): tRPC, invitations, the CSV exports
 * and the donations webhook, on Cloudflare's Rate Limiting binding. The binding counts in memory at
 * the Cloudflare location that serves the request, so a check adds no D1 or KV round trip to these
 * hot paths; the exact, stored D1 limiter stays with the credential endpoints (worker/auth/guards.ts).
 *
 * Keys: the user id when the request carries a session, else the client address (IPv6 by /64).
 * Off whenever `rateLimit.enabled` is off (development, test, `npm run bench`, `npm run e2e`): then
 * the binding is not called at all.
 */
import { getSessionFromRequest } from "../auth";
import { rateLimitKeyIp, setRetryAfter } from "../auth/guards";
import { getConfig } from "../config";
import { json } from "./headers";

export type ApiSurface = "trpc" | "invitations" | "export" | "webhook" | "documents";

type LimiterBinding = "API_RATE_LIMITER" | "EXPORT_RATE_LIMITER" | "WEBHOOK_RATE_LIMITER";

/**
 * Which binding counts each surface, and its period: Cloudflare fixes a binding's limit and period
 * (10 or 60 s) in wrangler.toml's [[ratelimits]], so the period here mirrors it for Retry-After.
 */
export const API_LIMITERS: Record<ApiSurface, { binding: LimiterBinding; period: 10 | 60 }> = {
  trpc: { binding: "API_RATE_LIMITER", period: 10 },
  invitations: { binding: "API_RATE_LIMITER", period: 10 },
  // Receipt and statement PDFs (issue 25): one each, as a person opens them, like tRPC calls.
  documents: { binding: "API_RATE_LIMITER", period: 10 },
  export: { binding: "EXPORT_RATE_LIMITER", period: 60 },
  webhook: { binding: "WEBHOOK_RATE_LIMITER", period: 60 },
};

export type LimitOutcome = { ok: true } | { ok: false; retryAfter: number };

/** The client address as the credential limiter keys it: cf-connecting-ip, IPv6 grouped by /64. */
export function clientAddressKey(request: Request) {
  const raw = request.headers.get("cf-connecting-ip") ?? request.headers.get("x-forwarded-for");
  return `ip:${rateLimitKeyIp(raw?.split(",")[0]?.trim() || null)}`;
}

export function callerKey(request: Request, userId: string | null | undefined) {
  return userId ? `user:${userId}` : clientAddressKey(request);
}

const warned = new Set<string>();

export async function limitApi(env: Env, surface: ApiSurface, caller: string): Promise<LimitOutcome> {
  if (!getConfig(env).rateLimit.enabled) return { ok: true };
  const { binding, period } = API_LIMITERS[surface];
  const limiter = env[binding] as RateLimit | undefined;
  if (!limiter) {
    // A deploy without the wrangler.toml binding: say so once per isolate rather than fail every
    // request (the credential endpoints keep their D1 limiter either way).
    if (!warned.has(binding)) console.error(`rate limits are on but the ${binding} binding is missing`);
    warned.add(binding);
    return { ok: true };
  }
  const { success } = await limiter.limit({ key: `${surface}:${caller}` });
  return success ? { ok: true } : { ok: false, retryAfter: period };
}

export const TOO_MANY_REQUESTS = {
  code: "TOO_MANY_REQUESTS",
  message: "Too many requests. Please try again later.",
} as const;

export function tooManyRequests(retryAfter: number): Response {
  const headers = new Headers();
  setRetryAfter(headers, retryAfter);
  return json(TOO_MANY_REQUESTS, { status: 429, headers });
}

/**
 * For the plain HTTP surfaces (exports, invitations, webhook): null to go on, or the 429 to send.
 * `bySession` keys by the signed-in user (a cookie-cache read, no D1 round trip when warm).
 */
export async function limitHttpRequest(
  request: Request,
  env: Env,
  surface: Exclude<ApiSurface, "trpc">,
  bySession: boolean,
): Promise<Response | null> {
  if (!getConfig(env).rateLimit.enabled) return null;
  const auth = bySession ? await getSessionFromRequest(request, env).catch(() => null) : null;
  const outcome = await limitApi(env, surface, callerKey(request, auth?.user.id));
  return outcome.ok ? null : tooManyRequests(outcome.retryAfter);
}
