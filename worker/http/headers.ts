// Security headers for every response (docs/steering/research/security.md §headers, decision 021): pages get
// a nonce-based CSP so injected markup cannot run script; every other answer gets `default-src 'none'`.

/** The request header that carries a page's nonce from the Worker into SSR (set by us only). */
export const CSP_NONCE_HEADER = "x-almoner-csp-nonce";

/** 128 random bits, base64 (CSP3 §2.3.1 asks for ≥ 128 bits, freshly generated per response). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** A portal page's policy: scripts only our own or with this nonce. style-src 'unsafe-inline' because React
 * and the chart libraries set `style` attributes no nonce covers, and styles cannot run script. */
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

/** A stored image, even opened directly: sandboxed, so a file passed as an image never acts as a page. */
export const MEDIA_POLICY = `${API_POLICY}; sandbox`;

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

/** A non-page answer keeps its own policy only if it adds to API_POLICY, so no handler can weaken it. */
export function applySecurityHeaders(headers: Headers, url: URL, pageNonce: string | null) {
  const html = (headers.get("content-type") ?? "").startsWith("text/html");
  const own = headers.get("content-security-policy");
  const policy =
    pageNonce && html ? pagePolicy(pageNonce) : own?.startsWith(`${API_POLICY};`) ? own : API_POLICY;
  for (const [name, value] of securityHeaders(url, policy)) headers.set(name, value);
}

/** 405 naming the methods the route takes (RFC 9110 §15.5.6); routes check it before reading a session. */
export function methodNotAllowed(allowed: readonly string[]): Response {
  return json(
    { code: "METHOD_NOT_ALLOWED", message: "Method not allowed" },
    { status: 405, headers: { Allow: allowed.join(", ") } },
  );
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { ...init, headers });
}
