/**
 * Where the app may send a browser, and which origins it trusts (docs/decisions/018-sessions-and-requests.md).
 * Pure (no bindings): the Worker's auth API and the portal's post-sign-in redirect share it.
 *
 * A URL is judged by parsing it with the WHATWG URL parser, the one browsers use: it drops leading
 * and trailing spaces and control characters, removes tabs and newlines anywhere, and reads `\` as
 * `/` in http(s) URLs. So "/\t/evil.example" is "//evil.example" to a browser and to this check;
 * a prefix test on the raw string sees "/" and a path.
 */

/** An origin as configured: exact ("https://a.example") or with `*` standing for one DNS label. */
export function matchesOrigin(pattern: string, origin: string): boolean {
  const p = pattern.replace(/\/$/, "");
  if (!p.includes("*")) return p === origin;
  const re = new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^./:]+")}$`);
  return re.test(origin);
}

export function isTrustedOrigin(origin: string, trusted: readonly string[]): boolean {
  return trusted.some((pattern) => matchesOrigin(pattern, origin));
}

/** The app's own origin, the origin the request came to, and the configured extra origins. */
export function trustedOriginsOf(appUrl: string, requestUrl: string, extra: readonly string[]): string[] {
  const origins = [new URL(appUrl).origin, new URL(requestUrl).origin, ...extra];
  return [...new Set(origins.map((o) => o.replace(/\/$/, "")))];
}

/**
 * `value` as a browser would resolve it against `base` (the request's origin), if that lands on
 * http(s) at a trusted origin; null otherwise. Relative values resolve to `base`, which is trusted.
 */
export function trustedUrl(value: string, base: string, trusted: readonly string[]): URL | null {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  // "https:evil.example" is a path on an https page and another host on an http one: a value
  // must name the same host whichever scheme the page it is followed from has.
  const otherBase = new URL(base);
  otherBase.protocol = otherBase.protocol === "https:" ? "http:" : "https:";
  try {
    if (new URL(value, otherBase).host !== url.host) return null;
  } catch {
    return null;
  }
  return isTrustedOrigin(url.origin, trusted) ? url : null;
}

/**
 * `url` as a reference to give a browser: its path, query and fragment when `value` was relative
 * (what better-auth answers), else the absolute URL. A path that would read as "//host" (from
 * "/.//host") is given absolute, so it cannot turn into a scheme-relative URL on the way.
 */
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

/**
 * The portal's rule for `?redirect=` after sign-in: only a path on the portal's own origin, given
 * back in its parsed form (never one that reads as "//host"); anything else → `fallback`. The
 * placeholder origin stands for "this site": a value resolves to it only if it names no other host.
 */
export function safeRedirectPath(value: unknown, fallback: string): string {
  if (typeof value !== "string" || value === "") return fallback;
  const self = "https://portal.invalid";
  const url = trustedUrl(value, self, [self]);
  if (!url) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!/^\/(?![/\\])/.test(path)) return fallback;
  // A "%" not followed by two hex digits stays in the parsed path, and the server answers such an
  // address 400 (issue 20: /login?redirect=%25 sent a signed-in user there).
  return /%(?![0-9A-Fa-f]{2})/.test(path) ? fallback : path;
}
