// The one way to a database (decision 027, docs/scaling.md). Which database holds an organization is
// configuration (`ORGANIZATION_DATABASES`: organization id → D1 binding), never code. A request's queries run
// in D1 sessions that start where it needs them; outside a request they go to the binding, i.e. the primary.
import { AsyncLocalStorage } from "node:async_hooks";

export type Database = Pick<D1Database, "prepare" | "batch">;

export type ReadStart =
  /** Writes, and what must be current: the first query goes to the primary. */
  | { kind: "primary" }
  /** Public pages: any replica, however far behind. */
  | { kind: "nearest" }
  /** Portal reads: a copy at least as new as each database's bookmark (none given: nearest). */
  | { kind: "bookmark"; bookmarks: Bookmarks };

/** Binding name → the newest D1 bookmark seen for that database. */
export type Bookmarks = Record<string, string>;

interface Scope {
  start: ReadStart;
  /** The request's sessions, one per binding, opened on first use. */
  sessions: Map<string, D1DatabaseSession>;
  /** Sessions that start on the primary whatever the request's start (auth, fresh checks). */
  primary: Map<string, D1DatabaseSession>;
}

const scope = new AsyncLocalStorage<Scope>();

/** The directory's binding; an organization not listed in ORGANIZATION_DATABASES lives there too. */
export const DIRECTORY_BINDING = "DB";
/** A binding's name as wrangler.toml may spell it (DB, DB_EU, ORG_DB_1, …). */
const BINDING_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

const placements = new Map<string, ReadonlyMap<string, string>>();

/** ORGANIZATION_DATABASES parsed once per value. A wrong value would put writes in the wrong place, so it
 * fails every request, naming it, rather than falling back to the directory. */
function placementOf(env: Env): ReadonlyMap<string, string> {
  const raw = typeof env.ORGANIZATION_DATABASES === "string" ? env.ORGANIZATION_DATABASES : "";
  const known = placements.get(raw);
  if (known) return known;
  const parsed: unknown = raw.trim() ? JSON.parse(raw) : {};
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error("ORGANIZATION_DATABASES must be a JSON object of organization id → D1 binding name");
  }
  const map = new Map<string, string>();
  for (const [organizationId, binding] of Object.entries(parsed)) {
    if (typeof binding !== "string" || !BINDING_NAME.test(binding)) {
      throw new Error(`ORGANIZATION_DATABASES: "${String(binding)}" is not a D1 binding name (DB, DB_EU, …)`);
    }
    map.set(organizationId, binding);
  }
  placements.set(raw, map);
  return map;
}

function bindingOf(env: Env, name: string): D1Database {
  const db = (env as unknown as Record<string, unknown>)[name] as D1Database | undefined;
  if (!db || typeof db.prepare !== "function") {
    throw new Error(`ORGANIZATION_DATABASES names ${name}, which is not a D1 binding of this Worker`);
  }
  return db;
}

export function databaseNameOf(env: Env, organizationId: string): string {
  return placementOf(env).get(organizationId) ?? DIRECTORY_BINDING;
}

export const placedApart = (env: Env, organizationId: string) =>
  databaseNameOf(env, organizationId) !== DIRECTORY_BINDING;

/** Every database the Worker is configured with, the directory first: what fan-out reads cover. */
export function databaseNames(env: Env): string[] {
  return [
    DIRECTORY_BINDING,
    ...new Set([...placementOf(env).values()].filter((b) => b !== DIRECTORY_BINDING)),
  ];
}

export function organizationsPlacedIn(env: Env, name: string): string[] {
  return [...placementOf(env)].filter(([, b]) => b === name).map(([id]) => id);
}

function sessionFor(env: Env, name: string, primary: boolean): Database {
  const db = bindingOf(env, name);
  const current = scope.getStore();
  if (!current) return db;
  const sessions = primary ? current.primary : current.sessions;
  let session = sessions.get(name);
  if (!session) {
    const start = primary ? { kind: "primary" as const } : current.start;
    session = db.withSession(
      start.kind === "primary"
        ? "first-primary"
        : start.kind === "bookmark" && start.bookmarks[name]
          ? start.bookmarks[name]
          : "first-unconstrained",
    );
    sessions.set(name, session);
  }
  return session;
}

export function organizationDatabase(env: Env, organizationId: string): Database {
  return sessionFor(env, databaseNameOf(env, organizationId), false);
}

export const orgDb = (ctx: { env: Env; org: { id: string } }) => organizationDatabase(ctx.env, ctx.org.id);

export function directoryDatabase(env: Env): Database {
  return sessionFor(env, DIRECTORY_BINDING, false);
}

/** The directory on the primary, whatever the request: auth and membership checks (decision 018). */
export function primaryDirectory(env: Env): Database {
  return sessionFor(env, DIRECTORY_BINDING, true);
}

export function databaseNamed(env: Env, name: string): Database {
  return sessionFor(env, name, false);
}

export const BOOKMARK_COOKIE = "almoner.d1";
export const BOOKMARK_HEADER = "x-d1-bookmark";
/** A D1 bookmark as the Sessions API hands it out; anything else from a client is ignored. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** "DB:<bookmark>|DB_EU:<bookmark>" → bookmarks; unknown shapes are dropped, so a forged value can at worst
 * start a read at an older copy, never fail a request. */
export function parseBookmarks(value: string | null | undefined): Bookmarks {
  const out: Bookmarks = {};
  for (const part of (value ?? "").split("|").slice(0, 16)) {
    const at = part.indexOf(":");
    const name = part.slice(0, at);
    const bookmark = part.slice(at + 1);
    if (at > 0 && BINDING_NAME.test(name) && BOOKMARK.test(bookmark)) out[name] = newest(out[name], bookmark);
  }
  return out;
}

export function formatBookmarks(bookmarks: Bookmarks): string {
  return Object.entries(bookmarks)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, bookmark]) => `${name}:${bookmark}`)
    .join("|");
}

/** D1 bookmarks of one database sort in commit order (they are fixed-width hex). */
function newest(a: string | undefined, b: string): string {
  return a && a > b ? a : b;
}

/** What the browser sent: the cookie and the header (API clients), the newest of each. */
export function bookmarksOf(request: Request): Bookmarks {
  const cookie = new RegExp(`(?:^|;\\s*)${BOOKMARK_COOKIE.replace(".", "\\.")}=([^;]*)`).exec(
    request.headers.get("cookie") ?? "",
  );
  const fromCookie = parseBookmarks(cookie?.[1] ? decodeURIComponent(cookie[1]) : "");
  const fromHeader = parseBookmarks(request.headers.get(BOOKMARK_HEADER));
  return mergeBookmarks(fromCookie, fromHeader);
}

export function mergeBookmarks(...all: Bookmarks[]): Bookmarks {
  const out: Bookmarks = {};
  for (const bookmarks of all) {
    for (const [name, bookmark] of Object.entries(bookmarks)) out[name] = newest(out[name], bookmark);
  }
  return out;
}

/** Runs a request with its databases; the bookmarks returned are the newest each database reached, for the
 * next request to start from. */
export async function withDatabases<T>(start: ReadStart, fn: () => Promise<T>) {
  const current: Scope = { start, sessions: new Map(), primary: new Map() };
  const result = await scope.run(current, fn);
  const reached: Bookmarks = {};
  for (const sessions of [current.sessions, current.primary]) {
    for (const [name, session] of sessions) {
      const bookmark = session.getBookmark();
      if (bookmark && BOOKMARK.test(bookmark)) reached[name] = newest(reached[name], bookmark);
    }
  }
  return { result, bookmarks: mergeBookmarks(start.kind === "bookmark" ? start.bookmarks : {}, reached) };
}
