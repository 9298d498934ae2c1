/** Request-level rules of the auth API: body parsing + validation, trusted URLs, rate limits. */
import type { z } from "zod";
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
  const origins = [new URL(ctx.config.app.url).origin, ctx.url.origin, ...ctx.config.auth.trustedOrigins];
  return [...new Set(origins.map((o) => o.replace(/\/$/, "")))];
}

/** A safe relative path (not "//host", not "/\host") or an absolute URL on a trusted origin. */
export function isTrustedUrl(ctx: AuthContext, value: string): boolean {
  if (value.startsWith("/")) return !value.startsWith("//") && !value.startsWith("/\\");
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return false;
    return trustedOrigins(ctx).some((o) => matchesOrigin(o, url.origin));
  } catch {
    return false;
  }
}

function matchesOrigin(pattern: string, origin: string) {
  if (!pattern.includes("*")) return pattern === origin;
  const re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^.]+")}$`);
  return re.test(origin);
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

/** The origin check applies only to POSTs carrying cookies (SPEC §5). */
export function checkOrigin(ctx: AuthContext) {
  if (ctx.request.method === "GET" || ctx.request.method === "HEAD" || ctx.request.method === "OPTIONS")
    return;
  if (!ctx.request.headers.get("cookie")) return;
  const origin = ctx.request.headers.get("origin") ?? refererOrigin(ctx.request.headers.get("referer"));
  if (!origin || origin === "null") return; // non-browser clients; cookies are SameSite=Lax anyway
  if (!trustedOrigins(ctx).some((o) => matchesOrigin(o, origin))) {
    throw new AuthApiError(403, "INVALID_ORIGIN", "Invalid origin");
  }
}

function refererOrigin(referer: string | null) {
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
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
