/** Request-level rules of the auth API: body parsing + validation, trusted URLs, rate limits. */

import { trustedOriginsOf, trustedUrl } from "@core/trusted-url";
import type { z } from "zod";
import { originGate, SAFE_METHODS } from "../http/origin-gate";
import { type AuthContext, loadSession } from "./core";
import { AuthApiError, E } from "./errors";

/**
 * The body as better-call 1.0.19 (1.3.34's router) reads it, checked against the schema: JSON only
 * under application/json, a form under its two types, else the raw text, which no object schema
 * accepts; so a "simple" cross-site request (text/plain needs no preflight) never reaches a handler as
 * JSON. Kept difference (decision 023): malformed JSON is a 400 here, where 1.3.34 throws (500).
 */
export async function readBody<T extends z.ZodType>(ctx: AuthContext, schema: T): Promise<z.infer<T>> {
  const header = ctx.request.headers.get("content-type") ?? "";
  const type = header.toLowerCase();
  const text = await ctx.bodyText();
  let raw: unknown;
  if (!text) {
    raw = undefined;
  } else if (type.includes("application/json")) {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AuthApiError(400, "BAD_REQUEST", "Invalid JSON in request body");
    }
  } else if (type.includes("application/x-www-form-urlencoded")) {
    raw = Object.fromEntries(new URLSearchParams(text));
  } else if (type.includes("multipart/form-data")) {
    const form = await new Response(text, { headers: { "content-type": header } })
      .formData()
      .catch(() => null);
    if (!form) throw E.VALIDATION_BODY();
    raw = Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]));
  } else {
    raw = text;
  }
  const parsed = schema.safeParse(raw);
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

/** `value` as a browser resolves it on this request: an http(s) URL on a trusted origin, or null. */
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
  // The gate passes every GET, HEAD and OPTIONS; say so before building the trusted list (two URL
  // parses), which get-session, the most frequent request, would otherwise pay for nothing.
  if (SAFE_METHODS.has(ctx.request.method.toUpperCase())) return;
  const gate = originGate(ctx.request, {
    trusted: trustedOrigins(ctx),
    cookiePrefix: ctx.config.cookie.prefix,
  });
  if (!gate.ok) throw new AuthApiError(403, gate.refusal.code, gate.refusal.message);
}

/** better-auth's special rules: strict for credential endpoints, stricter for mail, else `general`. */
function ruleFor(ctx: AuthContext, path: string) {
  const rl = ctx.config.rateLimit;
  if (/^\/(sign-in|sign-up|change-password|change-email)/.test(path))
    return { window: rl.strictWindow, max: rl.strictMax, general: false };
  if (/^\/(request-password-reset|send-verification-email|forget-password)/.test(path)) {
    return { window: rl.mailWindow, max: rl.mailMax, general: false };
  }
  return { window: rl.window, max: rl.max, general: true };
}

/** The most keys the in-memory counts keep (one per client address and path seen in a window). */
export const MEMORY_KEYS_MAX = 10_000;
const memoryCounts = new Map<string, { count: number; start: number }>();

/** better-auth's default `memory` storage: a fixed window per key, in this isolate, MEMORY_KEYS_MAX keys. */
export function countInMemory(key: string, now: number, windowMs: number) {
  let entry = memoryCounts.get(key);
  if (!entry || entry.start <= now - windowMs) {
    memoryCounts.delete(key);
    if (memoryCounts.size >= MEMORY_KEYS_MAX) {
      for (const [k, e] of memoryCounts) if (e.start <= now - windowMs) memoryCounts.delete(k);
      for (const k of memoryCounts.keys()) {
        if (memoryCounts.size < MEMORY_KEYS_MAX) break;
        memoryCounts.delete(k);
      }
    }
    entry = { count: 0, start: now };
    memoryCounts.set(key, entry);
  }
  entry.count++;
  return entry;
}

const rateLimitKey = (ctx: AuthContext, path: string) => `${rateLimitKeyIp(ctx.ip())}|${path}`;

/**
 * For an answer from memory: true and counted, as rateLimit would, when a general path is within its
 * limit; false and uncounted otherwise, so that the full path counts it once and refuses it.
 */
export function countedWithinGeneralLimit(ctx: AuthContext, path: string): boolean {
  if (!ctx.config.rateLimit.enabled) return true;
  const rule = ruleFor(ctx, path);
  if (!rule.general) return false;
  const key = rateLimitKey(ctx, path);
  const now = ctx.now();
  const entry = memoryCounts.get(key);
  if (entry && entry.start > now - rule.window * 1000 && entry.count >= rule.max) return false;
  countInMemory(key, now, rule.window * 1000);
  return true;
}

/** How many keys the in-memory counts hold (test/auth/rate-limit.test.ts). */
export const memoryKeyCount = () => memoryCounts.size;

/** IPv6 clients are grouped by /64 so one host cannot rotate through its own prefix. */
export function rateLimitKeyIp(ip: string | null) {
  if (!ip) return "no-ip";
  if (!ip.includes(":")) return ip;
  const groups = ip.split("::")[0]?.split(":") ?? [];
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/**
 * Decision 018: credential endpoints are also counted per account, so rotating addresses does not
 * help; the reset and verification mails share one count, so alternating endpoints does not either.
 */
function accountRuleFor(ctx: AuthContext, path: string) {
  const rl = ctx.config.rateLimit;
  if (/^\/sign-in\/email$/.test(path))
    return { bucket: "sign-in", window: rl.accountWindow, max: rl.accountMax };
  if (/^\/(request-password-reset|send-verification-email|forget-password)$/.test(path)) {
    return { bucket: "mail", window: rl.mailAccountWindow, max: rl.mailAccountMax };
  }
  return null;
}

/** The e-mail a credential request is about, as sign-in compares it (trimmed, lower-case). */
async function accountOf(ctx: AuthContext): Promise<string | null> {
  const text = await ctx.bodyText();
  let email: unknown;
  if ((ctx.request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) {
    email = new URLSearchParams(text).get("email");
  } else {
    try {
      email = (JSON.parse(text) as { email?: unknown } | null)?.email;
    } catch {
      return null;
    }
  }
  return typeof email === "string" && email.trim() ? email.trim().toLowerCase() : null;
}

/** One atomic upsert per key: a window that has passed restarts the count, else it increments. */
function countStatement(ctx: AuthContext, key: string, window: number) {
  const now = ctx.now();
  return ctx.db
    .prepare(
      `INSERT INTO rate_limit (key, count, window_start) VALUES (?1, 1, ?2)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN window_start <= ?3 THEN 1 ELSE count + 1 END,
         window_start = CASE WHEN window_start <= ?3 THEN ?2 ELSE window_start END
       RETURNING count, window_start`,
    )
    .bind(key, now, now - window * 1000);
}

/** 429 with better-auth's X-Retry-After and the standard Retry-After (RFC 9110 §10.2.3). */
export function setRetryAfter(headers: Headers, seconds: number) {
  const value = String(Math.max(1, Math.ceil(seconds)));
  headers.set("Retry-After", value);
  headers.set("X-Retry-After", value);
}

/**
 * Rate limits (decisions 018, 036): credential and mail endpoints counted exactly in D1, per address
 * and path and per account; every other path (get-session above all) in the isolate's memory, as
 * better-auth's default storage does, sparing a write to the primary on every page.
 */
export async function rateLimit(ctx: AuthContext, path: string) {
  if (!ctx.config.rateLimit.enabled) return;
  const rule = ruleFor(ctx, path);
  const key = rateLimitKey(ctx, path);
  if (rule.general) {
    const now = ctx.now();
    const entry = countInMemory(key, now, rule.window * 1000);
    if (entry.count <= rule.max) return;
    setRetryAfter(ctx.headers, (entry.start + rule.window * 1000 - now) / 1000);
    throw E.RATE_LIMITED();
  }
  const rules: { key: string; window: number; max: number }[] = [{ key, window: rule.window, max: rule.max }];
  const account = accountRuleFor(ctx, path);
  const email = account ? await accountOf(ctx) : null;
  if (account && email) rules.push({ key: `account:${account.bucket}|${email}`, ...account });
  // Both counts in one round trip (a D1 batch is one transaction).
  const rows = await ctx.db.batch<{ count: number; window_start: number }>(
    rules.map((r) => countStatement(ctx, r.key, r.window)),
  );
  // Past any of its limits: refused until the latest of the windows it broke has passed.
  const waits = rules.flatMap((rule, i) => {
    const row = rows[i]?.results[0];
    return row && row.count > rule.max ? [(row.window_start + rule.window * 1000 - ctx.now()) / 1000] : [];
  });
  if (waits.length) {
    setRetryAfter(ctx.headers, Math.max(...waits));
    throw E.RATE_LIMITED();
  }
}

export { loadSession };
