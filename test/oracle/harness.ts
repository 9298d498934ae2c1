/**
 * The two servers of the auth contract suite behind one interface (a `Side`), a cookie jar, the
 * users every case starts from, and what is compared of a response (`observe`).
 */
import type { Oracle } from "./server.ts";
import { SHARED_ORIGIN } from "./server.ts";

export const PASSWORD = "violet-harbour-lantern-41";
export const NEW_PASSWORD = "copper-meadow-quartz-77";
export const FOREIGN_ORIGIN = "http://evil.example";

export interface Side {
  name: "ours" | "theirs";
  /** Origin that serves /api/auth. */
  base: string;
  /** Runs one statement in the side's own database (both name the user table `user`, role `role`). */
  exec(sql: string, ...params: (string | number | null)[]): Promise<void>;
  /** The newest mailed link to `to` whose path matches `pattern`, as path + query. */
  mailLink(to: string, pattern: RegExp): Promise<string | null>;
  /** Makes every session of `userId` older than the fresh age (1 day). */
  ageSessions(userId: string): Promise<void>;
}

export function oracleSide(oracle: Oracle): Side {
  return {
    name: "theirs",
    base: oracle.base,
    exec: async (sql, ...params) => {
      oracle.db.prepare(sql).run(...params);
    },
    mailLink: async (to, pattern) => {
      for (let i = oracle.mails.length - 1; i >= 0; i--) {
        const m = oracle.mails[i];
        if (!m || m.to !== to) continue;
        const url = new URL(m.url);
        if (pattern.test(url.pathname)) return url.pathname + url.search;
      }
      return null;
    },
    ageSessions: async (userId) => {
      // better-auth on SQLite stores dates as ISO strings.
      const old = new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString();
      oracle.db
        .prepare("UPDATE session SET createdAt = ?, updatedAt = ? WHERE userId = ?")
        .run(old, old, userId);
    },
  };
}

interface D1Like {
  prepare(sql: string): {
    bind(...v: unknown[]): { run(): Promise<unknown>; all<T>(): Promise<{ results: T[] }> };
  };
}
interface KVLike {
  delete(key: string): Promise<void>;
}

export function oursSide(apiBase: string, db: D1Like, kv: KVLike): Side {
  return {
    name: "ours",
    base: apiBase,
    exec: async (sql, ...params) => {
      await db
        .prepare(sql)
        .bind(...params)
        .run();
    },
    mailLink: async (to, pattern) => {
      const res = await fetch(`${apiBase}/api/dev/outbox?to=${encodeURIComponent(to)}`);
      const list = (await res.json()) as { url: string | null }[];
      for (const m of list) {
        if (!m.url) continue;
        const url = new URL(m.url);
        if (pattern.test(url.pathname)) return url.pathname + url.search;
      }
      return null;
    },
    ageSessions: async (userId) => {
      const old = Date.now() - 2 * 24 * 3600 * 1000;
      await db
        .prepare("UPDATE session SET created_at = ?, updated_at = ? WHERE user_id = ?")
        .bind(old, old, userId)
        .run();
      // The KV copy of a session (worker/auth/core.ts kvKey) caches these rows: drop it, as every
      // change through the API does.
      const { results } = await db
        .prepare("SELECT token_hash FROM session WHERE user_id = ?")
        .bind(userId)
        .all<{ token_hash: string }>();
      await Promise.all(results.map((r) => kv.delete(`session:${r.token_hash}`)));
    },
  };
}

/** A browser-like cookie jar (names and values; Max-Age=0 deletes). */
export class Jar {
  readonly cookies = new Map<string, string>();
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  copy() {
    const j = new Jar();
    for (const [k, v] of this.cookies) j.cookies.set(k, v);
    return j;
  }
  store(res: Response) {
    for (const c of parseSetCookies(res)) {
      if (c.cleared) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }
}

export function parseSetCookies(res: Response) {
  return res.headers.getSetCookie().map((line) => {
    const [pair, ...attrs] = line.split(";");
    const eq = (pair ?? "").indexOf("=");
    const name = (pair ?? "").slice(0, eq).trim();
    const value = (pair ?? "").slice(eq + 1).trim();
    let cleared = false;
    for (const a of attrs.map((x) => x.trim())) {
      const [k, v = ""] = a.split("=");
      if (k?.toLowerCase() === "max-age" && Number(v) <= 0) cleared = true;
      if (k?.toLowerCase() === "expires" && Date.parse(v) < Date.now()) cleared = true;
    }
    return { name, value, cleared };
  });
}

export interface Wire {
  method: string;
  path: string;
  query?: Record<string, string>;
  /** A raw body (already serialised); undefined sends none. */
  body?: string;
  contentType?: string | null;
  jar?: Jar | null;
  origin?: string | null;
}

export async function send(side: Side, w: Wire): Promise<Response> {
  const headers = new Headers();
  if (w.contentType) headers.set("content-type", w.contentType);
  if (w.origin) headers.set("origin", w.origin);
  if (w.jar?.cookies.size) headers.set("cookie", w.jar.header());
  const qs = w.query && Object.keys(w.query).length ? `?${new URLSearchParams(w.query)}` : "";
  const res = await fetch(`${side.base}/api/auth${w.path}${qs}`, {
    method: w.method,
    headers,
    body: w.body,
    redirect: "manual",
  });
  w.jar?.store(res);
  return res;
}

export function postJson(path: string, body: unknown, jar: Jar | null = null): Wire {
  return {
    method: "POST",
    path,
    body: JSON.stringify(body),
    contentType: "application/json",
    jar,
    origin: SHARED_ORIGIN,
  };
}

/* ---------------------------------------------------------------- users */

export interface Actor {
  email: string;
  id: string;
  /** The session token the sign-up answered. */
  token: string;
  jar: Jar;
}

export class SetupError extends Error {}

async function must(res: Response, what: string) {
  if (res.status >= 400) throw new SetupError(`${what}: HTTP ${res.status} ${await res.text()}`);
  return res;
}

/** Signs a user up through the API and, unless told otherwise, verifies the address by mail. */
export async function signUpActor(
  side: Side,
  email: string,
  opts: { verified?: boolean; name?: string } = {},
): Promise<Actor> {
  const jar = new Jar();
  const res = await must(
    await send(
      side,
      postJson("/sign-up/email", { name: opts.name ?? "Case User", email, password: PASSWORD }, jar),
    ),
    `sign-up ${email}`,
  );
  const body = (await res.json()) as { token: string; user: { id: string } };
  const actor: Actor = { email, id: body.user.id, token: body.token, jar };
  if (opts.verified !== false) {
    const link = await side.mailLink(email, /\/verify-email$/);
    if (!link) throw new SetupError(`no verification mail to ${email}`);
    const url = new URL(link, side.base);
    await must(
      await send(side, {
        method: "GET",
        path: url.pathname.replace(/^\/api\/auth/, ""),
        query: Object.fromEntries(url.searchParams),
        jar,
      }),
      `verify ${email}`,
    );
    // The cookie cache was issued before the verification on one side or the other: drop it so both
    // sides read the user from the database on the next request.
    jar.cookies.delete("better-auth.session_data");
  }
  return actor;
}

export async function makeAdmin(side: Side, email: string): Promise<Actor> {
  const a = await signUpActor(side, email, { name: "Admin Person" });
  await side.exec("UPDATE user SET role = 'admin' WHERE id = ?", a.id);
  a.jar.cookies.delete("better-auth.session_data");
  return a;
}

/* ---------------------------------------------------------------- what is compared */

export interface Observed {
  status: number;
  /** json, html, empty or the media type. */
  kind: string;
  code?: string;
  message?: string;
  shape?: string;
  location?: string;
  cookies: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** Keys whose string values must differ between the servers (ids, tokens, times, addresses). */
const OPAQUE = /(^id$|Id$|token|Token|At$|^ip|userAgent|^image$|^url$|^accountId$|^impersonatedBy$)/;

function normaliseUrl(value: string, side: Side): string {
  try {
    const u = new URL(value, side.base);
    const self = u.origin === side.base || u.origin === SHARED_ORIGIN;
    const params = [...u.searchParams]
      .map(([k, v]) => `${k}=${/token/i.test(k) ? "<token>" : v}`)
      .sort()
      .join("&");
    return `${self ? "" : u.origin}${u.pathname.replace(/\/reset-password\/[^/]+$/, "/reset-password/<token>")}${params ? `?${params}` : ""}`;
  } catch {
    return value;
  }
}

/** Keys and value types, with the values that must agree (booleans, codes, names, roles…). */
export function shapeOf(value: unknown, side: Side, key = ""): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) {
    const items = [...new Set(value.map((v) => shapeOf(v, side)))].sort();
    return `[${value.length}:${items.join("|")}]`;
  }
  switch (typeof value) {
    case "boolean":
      return String(value);
    case "number":
      return /At$|expires|total|limit|offset/i.test(key) ? "number" : `number ${value}`;
    case "string":
      if (key === "url") return `url ${normaliseUrl(value, side)}`;
      if (ISO.test(value)) return "date";
      if (OPAQUE.test(key)) return "string";
      return JSON.stringify(value);
    case "object": {
      const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
      return `{${entries.map(([k, v]) => `${k}:${shapeOf(v, side, k)}`).join(",")}}`;
    }
    default:
      return typeof value;
  }
}

/**
 * The session a get-session answered, reduced to the state a request can change (who is signed
 * in, verified, their name and role, banned, impersonated): the full shape is compared once, on
 * get-session's own cases, not again after every request.
 */
export async function observeState(res: Response): Promise<Observed> {
  const body =
    res.status === 200 ? ((await res.json()) as Record<string, Record<string, unknown>> | null) : null;
  const cookies = parseSetCookies(res)
    .map((c) => `${c.name}:${c.cleared ? "cleared" : "set"}`)
    .sort()
    .join(" ");
  const u = body?.user;
  const shape = !body
    ? `no session (HTTP ${res.status})`
    : `${u?.email} verified=${u?.emailVerified} name=${JSON.stringify(u?.name)} role=${u?.role} banned=${u?.banned} impersonated=${!!body.session?.impersonatedBy}`;
  return { status: res.status, kind: "state", shape, cookies: cookies || "-" };
}

export async function observe(side: Side, res: Response): Promise<Observed> {
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  const cookies = parseSetCookies(res)
    .map((c) => `${c.name}:${c.cleared ? "cleared" : "set"}`)
    .sort()
    .join(" ");
  const o: Observed = { status: res.status, kind: "empty", cookies: cookies || "-" };
  const threw = res.headers.get("x-oracle-threw");
  if (threw) o.kind = `handler threw (${decodeURIComponent(threw)})`;
  const location = res.headers.get("location");
  if (location) o.location = normaliseUrl(location, side);
  if (!text || threw) return o;
  if (type.includes("json")) {
    o.kind = "json";
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      o.kind = "invalid json";
      return o;
    }
    if (body && typeof body === "object" && !Array.isArray(body)) {
      const { code, message, ...rest } = body as Record<string, unknown>;
      if (code !== undefined) o.code = String(code);
      if (message !== undefined) o.message = String(message);
      o.shape = shapeOf(rest, side);
    } else {
      o.shape = shapeOf(body, side);
    }
    return o;
  }
  o.kind = type.split(";")[0] || "no content-type";
  return o;
}

export const COMPARED = ["status", "kind", "code", "message", "shape", "location", "cookies"] as const;
export type Field = (typeof COMPARED)[number];
