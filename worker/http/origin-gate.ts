/**
 * The one origin gate (docs/decisions/018-sessions-and-requests.md, amended by
 * docs/decisions/023-auth-contract-differences.md): every request that can change state (any
 * method but GET, HEAD, OPTIONS) and carries one of the app's cookies (the session is what a forged
 * request would ride on) must say where it comes from, and that must be a trusted origin — as
 * better-auth 1.3.34's originCheckMiddleware refuses it. worker/app.ts applies it to every path
 * before routing (auth, tRPC, invitations, media, …); the auth API calls the same function.
 *
 * In order:
 * 1. `Sec-Fetch-Site` present and not `same-origin` or `none` → refused (a browser says where the
 *    request came from; `same-site` is refused too: a sibling subdomain is another application).
 * 2. `Origin: null` (sandboxed frames, data: URLs, cross-origin redirects) → `Missing or null Origin`.
 * 3. `Origin` present and not trusted → `Invalid origin`.
 * 4. No `Origin`: the `Referer`'s origin must be trusted (an unparseable one → `Invalid origin`).
 * 5. Neither `Origin` nor `Referer` → `Missing or null Origin`. Browsers send `Origin` on every
 *    POST; a script holding the cookies itself (curl, a server) must send it too. Cookie-less calls
 *    (the webhook, server to server with a bearer secret) are not asked anything.
 */

import { isTrustedOrigin } from "@core/trusted-url";

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** better-auth 1.3.34's two refusals (403), in its wording; the code is derived from the message. */
export const INVALID_ORIGIN = { code: "INVALID_ORIGIN", message: "Invalid origin" } as const;
export const MISSING_OR_NULL_ORIGIN = {
  code: "MISSING_OR_NULL_ORIGIN",
  message: "Missing or null Origin",
} as const;

export type Refusal = typeof INVALID_ORIGIN | typeof MISSING_OR_NULL_ORIGIN;
export type GateVerdict = { ok: true } | { ok: false; refusal: Refusal; reason: string };

export interface GateOptions {
  /** Origin patterns (core/trusted-url.ts `trustedOriginsOf`). */
  trusted: readonly string[];
  /**
   * The app's cookie prefix (app.config.ts `cookie.prefix`). Cookies the app did not set (a CDN's
   * SameSite=None bot cookie on an identity provider's cross-site form_post) authenticate nothing.
   */
  cookiePrefix: string;
}

/** Whether the Cookie header holds a cookie of the app (`prefix.*` or `__Secure-prefix.*`). */
export function carriesAppCookie(cookieHeader: string | null, prefix: string) {
  if (!cookieHeader) return false;
  return cookieHeader
    .split(";")
    .map((part) => part.trim().replace(/^__Secure-/, ""))
    .some((part) => part.startsWith(`${prefix}.`));
}

const invalid = (reason: string): GateVerdict => ({ ok: false, refusal: INVALID_ORIGIN, reason });
const missing = (reason: string): GateVerdict => ({ ok: false, refusal: MISSING_OR_NULL_ORIGIN, reason });

export function originGate(request: Request, { trusted, cookiePrefix }: GateOptions): GateVerdict {
  const isTrusted = (origin: string) => isTrustedOrigin(origin, trusted);
  if (SAFE_METHODS.has(request.method.toUpperCase())) return { ok: true };
  if (!carriesAppCookie(request.headers.get("cookie"), cookiePrefix)) return { ok: true };
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return invalid(`Sec-Fetch-Site ${site}`);
  const origin = request.headers.get("origin") || null;
  if (origin === "null") return missing("Origin null");
  if (origin !== null) return isTrusted(origin) ? { ok: true } : invalid(`Origin ${origin}`);
  const referer = request.headers.get("referer") || null;
  if (referer === null) return missing("no Origin or Referer");
  let from: string;
  try {
    from = new URL(referer).origin;
  } catch {
    return invalid("unreadable Referer");
  }
  return from !== "null" && isTrusted(from) ? { ok: true } : invalid(`Referer ${from}`);
}
