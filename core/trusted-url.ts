/**
 * Where the app may send a browser, and which origins it trusts (decision 018). URLs are judged as the
 * WHATWG parser reads them, never by prefix: "/\t/evil.example" is "//evil.example" to a browser.
 */

/** An origin as configured: exact ("https://a.example") or with `*` standing for one DNS label. */
function matchesOrigin(pattern: string, origin: string): boolean {
  const p = pattern.replace(/\/$/, "");
  if (!p.includes("*")) return p === origin;
  const re = new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^./:]+")}$`);
  return re.test(origin);
}

export function isTrustedOrigin(origin: string, trusted: readonly string[]): boolean {
  return trusted.some((pattern) => matchesOrigin(pattern, origin));
}

export function trustedOriginsOf(appUrl: string, requestUrl: string, extra: readonly string[]): string[] {
  const origins = [new URL(appUrl).origin, new URL(requestUrl).origin, ...extra];
  return [...new Set(origins.map((o) => o.replace(/\/$/, "")))];
}

/** `value` as a browser resolves it against `base`, if that lands on http(s) at a trusted origin. */
export function trustedUrl(value: string, base: string, trusted: readonly string[]): URL | null {
  // A lone surrogate would pass as U+FFFD here and throw later in encodeURIComponent or a header.
  if (hasLoneSurrogate(value)) return null;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  // "https:evil.example" is a path on an https page but a host on an http one: same host under both.
  const otherBase = new URL(base);
  otherBase.protocol = otherBase.protocol === "https:" ? "http:" : "https:";
  try {
    if (new URL(value, otherBase).host !== url.host) return null;
  } catch {
    return null;
  }
  return isTrustedOrigin(url.origin, trusted) ? url : null;
}

/** A surrogate without its pair (JSON can carry one). */
export function hasLoneSurrogate(value: string): boolean {
  return /\p{Cs}/u.test(value);
}

/** encodeURIComponent that writes a lone surrogate as U+FFFD, as URLSearchParams does, not throwing. */
export function queryValue(value: string): string {
  return encodeURIComponent(value.replace(/\p{Cs}/gu, "\uFFFD"));
}

/** Relative when `value` was, unless the path would read as "//host": then absolute. */
export function referenceFor(value: string, url: URL): string {
  const path = `${url.pathname}${url.search}${url.hash}`;
  const relative = /^\/(?![/\\])/.test(value.trim());
  return relative && !/^\/[/\\]/.test(path) ? path : url.toString();
}

/** A trusted `value` with query parameters set, in the same form `referenceFor` gives. */
export function withSearchParams(value: string, url: URL, params: Record<string, string | undefined>) {
  const out = new URL(url);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out.searchParams.set(k, v);
  return referenceFor(value, out);
}

/** `?redirect=` after sign-in: only a path on the portal's own origin, in its parsed form. */
export function safeRedirectPath(value: unknown, fallback: string): string {
  if (typeof value !== "string" || value === "") return fallback;
  const self = "https://portal.invalid";
  const url = trustedUrl(value, self, [self]);
  if (!url) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!/^\/(?![/\\])/.test(path)) return fallback;
  // A stray "%" survives parsing, and the server answers such a path 400.
  return /%(?![0-9A-Fa-f]{2})/.test(path) ? fallback : path;
}
