/**
 * Which URLs a stored link or image may hold (docs/decisions/019-shared-input-schemas.md): http: and
 * https: only, parsed by the WHATWG URL parser as a browser parses them. Pure and without zod, so a
 * renderer can import it alone (core/schemas.ts builds `httpUrl` on it).
 */

/**
 * True for an absolute http(s) URL with a host, given exactly: no leading or trailing space and no
 * control character anywhere, because the URL parser (and so the browser) strips leading spaces and
 * removes tabs and newlines, which turns " javascript:…" and "java\tscript:…" into javascript: URLs.
 */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 2048) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) {
      // A space is fine inside (a query), never at the ends; control characters never.
      if (c === 0x20 && i > 0 && i < value.length - 1) continue;
      return false;
    }
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}

/** `value` when it is an http(s) URL, else null: what a renderer puts in an href. */
export function safeHttpUrl(value: unknown): string | null {
  return isHttpUrl(value) ? value : null;
}

/**
 * `value` when it is an image the page may load: an http(s) URL or an image uploaded to this
 * origin's /api/media (worker/http/media.ts), else null. For <img src> of values stored before the rules.
 */
export function safeImageSrc(value: unknown): string | null {
  if (typeof value === "string" && /^\/api\/media\/[A-Za-z0-9_-]{1,64}$/.test(value)) return value;
  return safeHttpUrl(value);
}
