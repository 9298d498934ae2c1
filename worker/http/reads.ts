// Where a request's D1 reads start (decision 027): writes and auth on the primary, public pages at the
// nearest replica, the rest at the bookmark the browser last saw, so a user always reads their own writes.
import {
  BOOKMARK_COOKIE,
  BOOKMARK_HEADER,
  type Bookmarks,
  bookmarksOf,
  formatBookmarks,
  type ReadStart,
} from "../db/databases";
import { SAFE_METHODS } from "./origin-gate";

/** Paths whose every read must see the latest committed state: the auth contract and its kin. */
const CURRENT = [/^\/api\/auth(?:\/|$)/, /^\/api\/organizations\//, /^\/api\/invitations\//];
/** Pages and calls anyone may read: nobody's own write needs to be in them. */
const PUBLIC = [/^\/p\//, /^\/api\/trpc\/campaigns\.public$/];

export function readStartOf(request: Request, url = new URL(request.url)): ReadStart {
  const path = url.pathname;
  if (!SAFE_METHODS.has(request.method.toUpperCase())) return { kind: "primary" };
  if (CURRENT.some((p) => p.test(path))) return { kind: "primary" };
  if (PUBLIC.some((p) => p.test(path))) return { kind: "nearest" };
  return { kind: "bookmark", bookmarks: bookmarksOf(request) };
}

/** Answers that carry no bookmark: the auth API's must be better-auth 1.3's to the cookie. */
const NO_BOOKMARK = /^\/api\/auth(?:\/|$)/;

/** Hands the bookmarks on; the cookie is rewritten only when a database moved past what the request had. */
export function bookmarkHeaders(
  request: Request,
  start: ReadStart,
  reached: Bookmarks,
  headers: Headers,
  url = new URL(request.url),
) {
  if (start.kind === "nearest" || NO_BOOKMARK.test(url.pathname)) return;
  const value = formatBookmarks(reached);
  if (!value) return;
  headers.set(BOOKMARK_HEADER, value);
  if (value === formatBookmarks(bookmarksOf(request))) return;
  const secure = url.protocol === "https:" ? "; Secure" : "";
  // A day is far longer than any replica lag: an older bookmark is merely satisfied by every copy.
  headers.append(
    "Set-Cookie",
    `${BOOKMARK_COOKIE}=${encodeURIComponent(value)}; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax${secure}`,
  );
}
