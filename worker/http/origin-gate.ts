/**
 * The one origin gate (docs/decisions/018-sessions-and-requests.md): every request that can change
 * state (any method but GET, HEAD, OPTIONS) and carries one of the app's cookies (the session is
 * what a forged request would ride on) must come from a trusted origin. worker/app.ts applies it
 * to every path before routing; the auth API calls the same function.
 *
 * In order:
 * 1. `Sec-Fetch-Site` present and not `same-origin` or `none` → refused (a browser says where the
 *    request came from; `same-site` is refused too: a sibling subdomain is another application).
 * 2. `Origin` present and not trusted, including the literal `null` (sandboxed frames, data: URLs,
 *    cross-origin redirects) → refused.
 * 3. No `Origin`: the `Referer`'s origin must be trusted (an unparseable Referer → refused).
 * 4. None of the three: allowed. Browsers send `Origin` on every POST (and `Sec-Fetch-Site` on
 *    every request), so such a request is a non-browser client (curl, a server script) sending
 *    cookies it holds itself; a forged cross-site form cannot strip those headers.
 */

import { isTrustedOrigin } from "@core/trusted-url";

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type GateVerdict = { ok: true } | { ok: false; reason: string };

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

export function originGate(request: Request, { trusted, cookiePrefix }: GateOptions): GateVerdict {
  const isTrusted = (origin: string) => isTrustedOrigin(origin, trusted);
  if (SAFE_METHODS.has(request.method.toUpperCase())) return { ok: true };
  if (!carriesAppCookie(request.headers.get("cookie"), cookiePrefix)) return { ok: true };
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none")
    return { ok: false, reason: `Sec-Fetch-Site ${site}` };
  const origin = request.headers.get("origin") || null;
  if (origin !== null) {
    return origin !== "null" && isTrusted(origin) ? { ok: true } : { ok: false, reason: `Origin ${origin}` };
  }
  const referer = request.headers.get("referer") || null;
  if (referer !== null) {
    let from: string;
    try {
      from = new URL(referer).origin;
    } catch {
      return { ok: false, reason: "unreadable Referer" };
    }
    return from !== "null" && isTrusted(from) ? { ok: true } : { ok: false, reason: `Referer ${from}` };
  }
  return { ok: true };
}

/** The answer to a refused request: better-auth 1.3's shape and wording, on every path. */
export const INVALID_ORIGIN = { code: "INVALID_ORIGIN", message: "Invalid origin" } as const;
