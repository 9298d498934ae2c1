// The one origin gate (decisions 018, 023): a request that can change state and carries an app cookie must
// come from a trusted origin, as better-auth 1.3.34's originCheckMiddleware requires. `Sec-Fetch-Site:
// same-site` is refused too (a sibling subdomain is another application); cookie-less calls pass.

import { isTrustedOrigin } from "@core/trusted-url";

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** better-auth 1.3.34's two refusals (403), in its wording; the code is derived from the message. */
export const INVALID_ORIGIN = { code: "INVALID_ORIGIN", message: "Invalid origin" } as const;
export const MISSING_OR_NULL_ORIGIN = {
  code: "MISSING_OR_NULL_ORIGIN",
  message: "Missing or null Origin",
} as const;

export type Refusal = typeof INVALID_ORIGIN | typeof MISSING_OR_NULL_ORIGIN;
type GateVerdict = { ok: true } | { ok: false; refusal: Refusal; reason: string };

interface GateOptions {
  trusted: readonly string[];
  /** Cookies the app did not set (a CDN's bot cookie on a cross-site form_post) authenticate nothing. */
  cookiePrefix: string;
}

/** Whether the Cookie header holds a cookie of the app (`prefix.*` or `__Secure-prefix.*`). */
function carriesAppCookie(cookieHeader: string | null, prefix: string) {
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
