/**
 * Security headers for every response (docs/steering/research/security.md §headers, docs/decisions/021).
 *
 * Pages rendered by TanStack Start get a nonce-based Content-Security-Policy: the Worker makes a
 * fresh nonce per page, hands it to the router through a request header (src/server/csp-nonce.ts →
 * createRouter's `ssr.nonce`), and the router stamps it on every script, style and preload it
 * writes — its streamed hydration scripts included. Scripts run only from our origin or with that
 * nonce, so markup injected into a page (stored XSS) cannot run script. Everything else the Worker
 * answers (JSON, CSV, media, the auth error page) needs no script at all and gets `default-src 'none'`.
 */

/** The request header that carries a page's nonce from the Worker into SSR (set by us only). */
export const CSP_NONCE_HEADER = "x-almoner-csp-nonce";

/** 128 random bits, base64 (CSP3 §2.3.1 asks for ≥ 128 bits, freshly generated per response). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The policy of a portal page.
 * - script-src: our own files (the built chunks) and inline scripts carrying this page's nonce;
 *   no 'unsafe-inline', no 'unsafe-eval', no other host.
 * - style-src 'unsafe-inline': React and the chart/popover libraries set `style` attributes, which
 *   no nonce can cover; styles cannot run script, so this is the usual trade.
 * - img-src https: — profile photos from the social providers and logos are absolute https URLs.
 */
export function pagePolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Answers that are not portal pages: nothing may load or run from them. */
export const API_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The security headers of an answer, as name/value pairs (a Headers init, or to set one by one). */
export function securityHeaders(url: URL, policy: string): [string, string][] {
  const pairs: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"],
    ["Content-Security-Policy", policy],
  ];
  if (url.protocol === "https:")
    pairs.push(["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]);
  return pairs;
}

export function applySecurityHeaders(headers: Headers, url: URL, pageNonce: string | null) {
  const html = (headers.get("content-type") ?? "").startsWith("text/html");
  for (const [name, value] of securityHeaders(url, pageNonce && html ? pagePolicy(pageNonce) : API_POLICY))
    headers.set(name, value);
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { ...init, headers });
}
