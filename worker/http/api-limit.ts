// The API limiter (decision 018) on Cloudflare's Rate Limiting binding: it counts in memory where the request
// is served, so no D1 or KV round trip. Keys: the user id, else the client address (IPv6 by /64).
import { getSessionFromRequest } from "../auth";
import { rateLimitKeyIp, setRetryAfter } from "../auth/guards";
import { getConfig } from "../config";
import { json } from "./headers";

type ApiSurface = "trpc" | "invitations" | "export" | "webhook" | "documents";

type LimiterBinding = "API_RATE_LIMITER" | "EXPORT_RATE_LIMITER" | "WEBHOOK_RATE_LIMITER";

// Cloudflare fixes each binding's limit and period in wrangler.toml [[ratelimits]]; mirrored for Retry-After.
const API_LIMITERS: Record<ApiSurface, { binding: LimiterBinding; period: 10 | 60 }> = {
  trpc: { binding: "API_RATE_LIMITER", period: 10 },
  invitations: { binding: "API_RATE_LIMITER", period: 10 },
  documents: { binding: "API_RATE_LIMITER", period: 10 },
  export: { binding: "EXPORT_RATE_LIMITER", period: 60 },
  webhook: { binding: "WEBHOOK_RATE_LIMITER", period: 60 },
};

type LimitOutcome = { ok: true } | { ok: false; retryAfter: number };

/** The client address as the credential limiter keys it: cf-connecting-ip, IPv6 grouped by /64. */
function clientAddressKey(request: Request) {
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
    // A deploy without the binding: warn once per isolate rather than fail every request.
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

function tooManyRequests(retryAfter: number): Response {
  const headers = new Headers();
  setRetryAfter(headers, retryAfter);
  return json(TOO_MANY_REQUESTS, { status: 429, headers });
}

/** Null to go on, or the 429; `bySession` keys by the signed-in user (a cookie-cache read when warm). */
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
