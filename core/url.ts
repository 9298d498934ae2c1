/** Which URLs a stored link or image may hold (decision 019): http(s), as a browser parses them. No zod. */

/** An exact absolute http(s) URL: the parser would drop the tab of "java\tscript:" and read javascript:. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 2048) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) {
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

/** What a renderer puts in an href. */
export function safeHttpUrl(value: unknown): string | null {
  return isHttpUrl(value) ? value : null;
}

/** For <img src>: an http(s) URL or an uploaded image, else null, whatever a row stored. */
export function safeImageSrc(value: unknown): string | null {
  if (typeof value === "string" && /^\/api\/media\/[A-Za-z0-9_-]{1,64}$/.test(value)) return value;
  return safeHttpUrl(value);
}
