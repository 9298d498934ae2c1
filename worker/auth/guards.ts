/** Request-level rules of the auth API: body parsing + validation, trusted URLs, rate limits. */
import type { z } from "zod";
import { INVALID_ORIGIN, originGate } from "../http/origin-gate";
import { trustedOriginsOf, trustedUrl } from "../lib/trusted-url";
import { type AuthContext, loadSession } from "./core";
import { AuthApiError, E } from "./errors";

export async function readBody<T extends z.ZodType>(ctx: AuthContext, schema: T): Promise<z.infer<T>> {
  let raw: unknown = {};
  const type = ctx.request.headers.get("content-type") ?? "";
  const text = await ctx.request.text();
  if (text.trim()) {
    if (type.includes("application/x-www-form-urlencoded")) {
      raw = Object.fromEntries(new URLSearchParams(text));
    } else {
      try {
        raw = JSON.parse(text);
      } catch {
        throw new AuthApiError(400, "BAD_REQUEST", "Invalid JSON in request body");
      }
    }
  }
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw E.VALIDATION_BODY();
  return parsed.data;
}

export function readQuery<T extends z.ZodType>(ctx: AuthContext, schema: T): z.infer<T> {
  const parsed = schema.safeParse(Object.fromEntries(ctx.url.searchParams));
  if (!parsed.success) throw E.VALIDATION_QUERY();
  return parsed.data;
}

export function trustedOrigins(ctx: AuthContext): string[] {
  return trustedOriginsOf(ctx.config.app.url, ctx.request.url, ctx.config.auth.trustedOrigins);
}

/**
 * `value` parsed as a browser would resolve it on this request (worker/lib/trusted-url.ts): an
 * http(s) URL on a trusted origin, or null. Relative values resolve to the request's origin.
 */
export function resolveTrustedUrl(ctx: AuthContext, value: string): URL | null {
  return trustedUrl(value, ctx.url.origin, trustedOrigins(ctx));
}

export function isTrustedUrl(ctx: AuthContext, value: string): boolean {
  return resolveTrustedUrl(ctx, value) !== null;
}

const URL_FIELDS: [string, string, string][] = [
  ["callbackURL", "INVALID_CALLBACKURL", "Invalid callbackURL"],
  ["redirectTo", "INVALID_REDIRECTURL", "Invalid redirectURL"],
  ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL", "Invalid errorCallbackURL"],
  ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL", "Invalid newUserCallbackURL"],
];

/** SPEC §5: callback/redirect/error URLs must be trusted or safe relative paths (403 otherwise). */
export function checkUrls(ctx: AuthContext, values: Record<string, unknown>) {
  for (const [field, code, message] of URL_FIELDS) {
    const v = values[field];
    if (typeof v === "string" && v !== "" && !isTrustedUrl(ctx, v))
      throw new AuthApiError(403, code, message);
  }
}

/** The one origin gate of worker/app.ts (decision 018), with the auth API's error. */
export function checkOrigin(ctx: AuthContext) {
  const gate = originGate(ctx.request, {
    trusted: trustedOrigins(ctx),
    cookiePrefix: ctx.config.cookie.prefix,
  });
  if (!gate.ok) {
    throw new AuthApiError(403, INVALID_ORIGIN.code, INVALID_ORIGIN.message);
  }
}

/** better-auth's special rules: strict for credential endpoints, stricter for mail. */
function ruleFor(ctx: AuthContext, path: string) {
  const rl = ctx.config.rateLimit;
  if (/^\/(sign-in|sign-up|change-password|change-email)/.test(path))
    return { window: rl.strictWindow, max: rl.strictMax };
  if (/^\/(request-password-reset|send-verification-email|forget-password)/.test(path)) {
    return { window: rl.mailWindow, max: rl.mailMax };
  }
  return { window: rl.window, max: rl.max };
}

/** IPv6 clients are grouped by /64 so one host cannot rotate through its own prefix. */
export function rateLimitKeyIp(ip: string | null) {
  if (!ip) return "no-ip";
  if (!ip.includes(":")) return ip;
  const groups = ip.split("::")[0]?.split(":") ?? [];
  return `${groups.slice(0, 4).join(":")}::/64`;
}

export async function rateLimit(ctx: AuthContext, path: string) {
  if (!ctx.config.rateLimit.enabled) return;
  const { window, max } = ruleFor(ctx, path);
  const now = ctx.now();
  const key = `${rateLimitKeyIp(ctx.ip())}|${path}`;
  const cutoff = now - window * 1000;
  // One atomic statement: a new window resets the count, else it increments.
  const row = await ctx.db
    .prepare(
      `INSERT INTO rate_limit (key, count, window_start) VALUES (?1, 1, ?2)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN window_start <= ?3 THEN 1 ELSE count + 1 END,
         window_start = CASE WHEN window_start <= ?3 THEN ?2 ELSE window_start END
       RETURNING count, window_start`,
    )
    .bind(key, now, cutoff)
    .first<{ count: number; window_start: number }>();
  if (row && row.count > max) {
    const retryAfter = Math.max(1, Math.ceil((row.window_start + window * 1000 - now) / 1000));
    ctx.headers.set("X-Retry-After", String(retryAfter));
    throw E.RATE_LIMITED();
  }
}

export { loadSession };
