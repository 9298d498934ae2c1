/**
 * Sessions after Lucia's design on the better-auth 1.3 wire contract (decision 001): random tokens,
 * looked up by SHA-256, kept AES-GCM encrypted (the contract hands tokens back), signed cookies, a
 * cookie cache and a KV copy. One file on purpose: the session lifecycle is proved right read together.
 */
import { isPlatformAdmin } from "@core/permissions";
import { isDateMs } from "@core/time";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import type { AppConfig } from "../../app.config";
import { getConfig } from "../config";
import { type Database, primaryDirectory } from "../db/databases";
import type { Row } from "../db/rows";
import type { session, user } from "../db/schema";
import { generateId } from "../lib/ids";
import {
  BoundedMemo,
  decryptString,
  encryptString,
  hmacBase64url,
  safeEqual,
  sha256Hex,
  signCookieValue,
  verifiedBefore,
  verifyCookieValue,
} from "./crypto";
import { AuthApiError, E } from "./errors";

/** A user as `SELECT *` returns it (worker/db/rows.ts). */
export type UserRow = Row<typeof user>;

/** A session as `SELECT *` returns it. */
export type SessionRow = Row<typeof session>;

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  role: string;
  banned: boolean;
  banReason: string | null;
  banExpires: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionRecord {
  id: string;
  token: string;
  userId: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  impersonatedBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An instant as ISO text; null for none, and for one no Date holds (a row from before decision 019). */
const iso = (ms: number | null) => (ms === null || !isDateMs(ms) ? null : new Date(ms).toISOString());

export function toUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: !!row.email_verified,
    image: row.image,
    role: row.role,
    banned: !!row.banned,
    banReason: row.ban_reason,
    banExpires: iso(row.ban_expires),
    createdAt: iso(row.created_at) as string,
    updatedAt: iso(row.updated_at) as string,
  };
}

/** The user as sign-up, sign-in, change-password and verify-email answer it: 1.3.34's seven fields. */
type PublicUser = Pick<
  UserRecord,
  "id" | "email" | "name" | "image" | "emailVerified" | "createdAt" | "updatedAt"
>;

export function toPublicUser(u: UserRecord): PublicUser {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    image: u.image,
    emailVerified: u.emailVerified,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  };
}

export function toSession(row: SessionRow, token: string): SessionRecord {
  return {
    id: row.id,
    token,
    userId: row.user_id,
    expiresAt: iso(row.expires_at) as string,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    impersonatedBy: row.impersonated_by,
    createdAt: iso(row.created_at) as string,
    updatedAt: iso(row.updated_at) as string,
  };
}

/** Everything one auth request needs. `now` is injectable so expiry can be tested with a clock. */
export class AuthContext {
  readonly config: AppConfig;
  #url: URL | null;
  /** The request's URL, parsed on first use: a session check answered from memory never needs it. */
  get url(): URL {
    this.#url ??= new URL(this.request.url);
    return this.#url;
  }
  readonly secure: boolean;
  #headers: Headers | null = null;
  /** The answer's headers (Set-Cookie, Retry-After…), made on first use: most reads set none. */
  get headers(): Headers {
    this.#headers ??= new Headers();
    return this.#headers;
  }
  readonly cookies: ReadonlyMap<string, string>;
  readonly secret: string;
  /** The auth contract reads and writes the directory's primary (decision 027); opened on first use. */
  get db(): Database {
    return primaryDirectory(this.env);
  }

  constructor(
    readonly request: Request,
    readonly env: Env,
    readonly now: () => number = Date.now,
    /** The request's URL, when the caller has parsed it already. */
    url?: URL,
  ) {
    this.config = getConfig(env);
    this.#url = url ?? null;
    // A URL's serialization starts with its scheme, so the text says what `protocol` would.
    this.secure = this.config.app.url.startsWith("https://") || request.url.startsWith("https:");
    this.cookies = cookiesOf(request.headers.get("cookie"));
    const secret = env.AUTH_SECRET;
    if (!secret || (this.config.app.environment === "production" && secret.length < 32)) {
      throw new Error("AUTH_SECRET is missing or too short");
    }
    this.secret = secret;
  }

  cookieName(name: string) {
    return `${this.secure ? "__Secure-" : ""}${this.config.cookie.prefix}.${name}`;
  }

  readCookie(name: string) {
    return (
      this.cookies.get(this.cookieName(name)) ?? this.cookies.get(`${this.config.cookie.prefix}.${name}`)
    );
  }

  setCookie(name: string, value: string, maxAge: number | null) {
    const parts = [`${this.cookieName(name)}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
    if (maxAge !== null) parts.push(`Max-Age=${Math.min(Math.floor(maxAge), this.config.cookie.maxAgeCap)}`);
    if (this.secure) parts.push("Secure");
    this.headers.append("Set-Cookie", parts.join("; "));
  }

  expireCookie(name: string) {
    this.setCookie(name, "", 0);
  }

  #body: Promise<string> | null = null;
  /** The request body as text, read once: the rate limiter (per-account keys) and the handler share it. */
  bodyText(): Promise<string> {
    this.#body ??= this.request.text();
    return this.#body;
  }

  ip(): string | null {
    const raw = this.request.headers.get("cf-connecting-ip") ?? this.request.headers.get("x-forwarded-for");
    const first = raw?.split(",")[0]?.trim();
    return first || null;
  }
}

/**
 * Cookie headers this isolate has parsed: a browser repeats one until a cookie changes (decision 041).
 * The maps are shared, hence read-only; only headers up to MEMO_COOKIE_HEADER_CHARS (the largest
 * cookie cache and the token, with room) are kept, so the memo stays bounded whatever callers send.
 */
const MEMO_COOKIE_HEADERS = 500;
const MEMO_COOKIE_HEADER_CHARS = 8192;
const parsedCookieHeaders = new BoundedMemo<ReadonlyMap<string, string>>(MEMO_COOKIE_HEADERS);
const NO_COOKIES: ReadonlyMap<string, string> = new Map();

function cookiesOf(header: string | null): ReadonlyMap<string, string> {
  if (!header) return NO_COOKIES;
  if (header.length > MEMO_COOKIE_HEADER_CHARS) return parseCookies(header);
  let cookies = parsedCookieHeaders.get(header);
  if (!cookies) {
    cookies = parseCookies(header);
    parsedCookieHeaders.set(header, cookies);
  }
  return cookies;
}

function parseCookies(header: string | null): Map<string, string> {
  const map = new Map<string, string>();
  if (!header) return map;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name && !map.has(name)) map.set(name, part.slice(eq + 1).trim());
  }
  return map;
}

/* ---------------------------------------------------------------- users */

export async function findUserByEmail(db: Database, email: string) {
  return db.prepare("SELECT * FROM user WHERE email = ?").bind(email.toLowerCase()).first<UserRow>();
}

export async function findUserById(db: Database, id: string) {
  return db.prepare("SELECT * FROM user WHERE id = ?").bind(id).first<UserRow>();
}

/** An expired ban lifts itself at the next sign-in (contract §6); a live one refuses the session. */
export async function assertNotBanned(ctx: AuthContext, user: UserRow) {
  if (!user.banned) return;
  if (user.ban_expires !== null && user.ban_expires <= ctx.now()) {
    await ctx.db
      .prepare(
        "UPDATE user SET banned = 0, ban_reason = NULL, ban_expires = NULL, updated_at = ? WHERE id = ?",
      )
      .bind(ctx.now(), user.id)
      .run();
    user.banned = 0;
    user.ban_reason = null;
    user.ban_expires = null;
    return;
  }
  throw new AuthApiError(
    403,
    "BANNED_USER",
    "You have been banned from this application. Please contact support if you believe this is an error.",
  );
}

/* ------------------------------------------------------------- sessions */

interface SessionOptions {
  dontRemember?: boolean;
  impersonatedBy?: string | null;
  expiresIn?: number;
}

async function insertSession(ctx: AuthContext, userId: string, opts: SessionOptions = {}) {
  const token = generateId();
  const now = ctx.now();
  const expiresIn =
    opts.expiresIn ??
    (opts.dontRemember ? ctx.config.session.dontRememberExpiresIn : ctx.config.session.expiresIn);
  const row: SessionRow = {
    id: generateId(),
    token_hash: sha256Hex(token),
    token_enc: await encryptString(ctx.secret, token),
    user_id: userId,
    expires_at: now + expiresIn * 1000,
    // better-auth 1.3.34 stores "" when the address or agent is unknown, never null.
    ip_address: ctx.ip() ?? "",
    user_agent: ctx.request.headers.get("user-agent") ?? "",
    impersonated_by: opts.impersonatedBy ?? null,
    created_at: now,
    updated_at: now,
  };
  await ctx.db
    .prepare(
      `INSERT INTO session (id, token_hash, token_enc, user_id, expires_at, ip_address, user_agent, impersonated_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      row.id,
      row.token_hash,
      row.token_enc,
      row.user_id,
      row.expires_at,
      row.ip_address,
      row.user_agent,
      row.impersonated_by,
      row.created_at,
      row.updated_at,
    )
    .run();
  return { row, token };
}

/** Creates a session and sets its cookies (SPEC §4: rememberMe false → no Max-Age + dont_remember). */
export async function createSessionWithCookies(ctx: AuthContext, user: UserRow, opts: SessionOptions = {}) {
  const { row, token } = await insertSession(ctx, user.id, opts);
  await setSessionCookies(ctx, row, token, user, !!opts.dontRemember);
  return { session: toSession(row, token), user: toUser(user), token };
}

export async function setSessionCookies(
  ctx: AuthContext,
  row: SessionRow,
  token: string,
  user: UserRow,
  dontRemember: boolean,
) {
  const maxAge = dontRemember ? null : Math.max(0, Math.round((row.expires_at - ctx.now()) / 1000));
  ctx.setCookie("session_token", encodeURIComponent(await signCookieValue(token, ctx.secret)), maxAge);
  if (dontRemember) {
    ctx.setCookie("dont_remember", encodeURIComponent(await signCookieValue("true", ctx.secret)), null);
  }
  await setCookieCache(ctx, row, token, user, dontRemember);
}

export function clearSessionCookies(ctx: AuthContext) {
  ctx.expireCookie("session_token");
  ctx.expireCookie("session_data");
  ctx.expireCookie("dont_remember");
}

/** A cookie's value as it was signed (its percent-encoding undone), or null. */
function signedCookie(ctx: AuthContext, name: string): string | null {
  const raw = ctx.readCookie(name);
  if (!raw) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

async function readSignedCookie(ctx: AuthContext, name: string) {
  const signed = signedCookie(ctx, name);
  return signed === null ? null : verifyCookieValue(signed, ctx.secret);
}

export const readSessionToken = (ctx: AuthContext) => readSignedCookie(ctx, "session_token");
export const readDontRemember = async (ctx: AuthContext) =>
  (await readSignedCookie(ctx, "dont_remember")) === "true";

export async function findSessionByToken(db: Database, token: string) {
  return db.prepare("SELECT * FROM session WHERE token_hash = ?").bind(sha256Hex(token)).first<SessionRow>();
}

/** The session and its user in one D1 round trip (a batch: both reads see the same state). */
async function findSessionAndUser(db: Database, token: string) {
  const hash = sha256Hex(token);
  const [session, user] = await db.batch([
    db.prepare("SELECT * FROM session WHERE token_hash = ?").bind(hash),
    db.prepare("SELECT * FROM user WHERE id = (SELECT user_id FROM session WHERE token_hash = ?)").bind(hash),
  ]);
  return {
    row: (session?.results[0] as SessionRow | undefined) ?? null,
    user: (user?.results[0] as UserRow | undefined) ?? null,
  };
}

export async function deleteSessionRows(ctx: AuthContext, rows: Pick<SessionRow, "id" | "token_hash">[]) {
  if (!rows.length) return;
  const stmts = rows.map((r) => ctx.db.prepare("DELETE FROM session WHERE id = ?").bind(r.id));
  await ctx.db.batch(stmts);
  await Promise.all(rows.map((r) => ctx.env.KV.delete(kvKey(r.token_hash))));
}

export async function deleteUserSessions(ctx: AuthContext, userId: string, exceptId?: string) {
  const { results } = await ctx.db
    .prepare("SELECT id, token_hash FROM session WHERE user_id = ?")
    .bind(userId)
    .all<Pick<SessionRow, "id" | "token_hash">>();
  await deleteSessionRows(
    ctx,
    results.filter((r) => r.id !== exceptId),
  );
}

/* --------------------------------------------------------- cookie cache */

const kvKey = (tokenHash: string) => `session:${tokenHash}`;
const CACHE_VERSION = "1";

interface CachedSession {
  session: SessionRecord;
  user: UserRecord;
}

const toCached = (row: SessionRow, token: string, user: UserRow): CachedSession => ({
  session: toSession(row, token),
  user: toUser(user),
});

async function writeKvCache(ctx: AuthContext, row: SessionRow, token: string, user: UserRow) {
  await putKvCache(ctx, row.token_hash, toCached(row, token, user));
}

async function putKvCache(ctx: AuthContext, tokenHash: string, cached: CachedSession) {
  const maxAge = ctx.config.cookie.cacheMaxAge;
  if (maxAge <= 0) return;
  await ctx.env.KV.put(kvKey(tokenHash), JSON.stringify(cached), { expirationTtl: Math.max(60, maxAge) });
}

/** The cookie cache of a new or changed session, and its KV copy. */
async function setCookieCache(
  ctx: AuthContext,
  row: SessionRow,
  token: string,
  user: UserRow,
  dontRemember: boolean,
) {
  await writeCookieCache(ctx, toCached(row, token, user), dontRemember);
  await writeKvCache(ctx, row, token, user);
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Sets the signed session_data cookie (better-auth's cookie cache) for `payload`. */
async function writeCookieCache(ctx: AuthContext, payload: CachedSession, dontRemember: boolean) {
  const maxAge = ctx.config.cookie.cacheMaxAge;
  if (maxAge <= 0) return;
  const updatedAt = ctx.now();
  const expiresAt = updatedAt + maxAge * 1000;
  const session = { session: payload.session, user: payload.user, updatedAt, version: CACHE_VERSION };
  // better-auth signs JSON.stringify({ ...session, expiresAt }) and sends { session, expiresAt, signature }:
  // both are spelled from the one serialization of `session`, key for key as JSON.stringify gives them.
  const sessionJson = JSON.stringify(session);
  const signature = await hmacBase64url(ctx.secret, `${sessionJson.slice(0, -1)},"expiresAt":${expiresAt}}`);
  // UTF-8, then base64url without padding, as @better-auth/utils writes it (btoa refuses "Łukasz").
  const value = encodeBase64urlNoPadding(
    utf8.encode(`{"session":${sessionJson},"expiresAt":${expiresAt},"signature":"${signature}"}`),
  );
  // Too big for one cookie (SPEC §5: below ~4093 chars): skip the cookie, KV still caches.
  if (value.length <= ctx.config.cookie.cacheMaxLength) {
    ctx.setCookie("session_data", value, dontRemember ? null : maxAge);
  }
}

interface CookieCachePayload {
  session: { session: SessionRecord; user: UserRecord; updatedAt: number; version: string };
  expiresAt: number;
  signature: string;
}

/**
 * session_data values whose signature this isolate has checked (decode, parse and HMAC once per
 * value); expiry and the token are still checked on every read.
 */
interface VerifiedCookieCache {
  secret: string;
  parsed: CookieCachePayload;
  /** The session's own expiry (`parsed.session.session.expiresAt`) in ms, read once. */
  sessionExpiresAt: number;
}
const verifiedCookieCaches = new BoundedMemo<VerifiedCookieCache>(2000);

async function verifiedCookieCache(ctx: AuthContext, raw: string): Promise<VerifiedCookieCache | null> {
  const known = verifiedCookieCaches.get(raw);
  if (known && known.secret === ctx.secret) return known;
  const parsed = JSON.parse(utf8Decoder.decode(decodeBase64urlIgnorePadding(raw))) as CookieCachePayload;
  const expected = await hmacBase64url(
    ctx.secret,
    JSON.stringify({ ...parsed.session, expiresAt: parsed.expiresAt }),
  );
  if (!safeEqual(expected, parsed.signature)) return null;
  const verified = {
    secret: ctx.secret,
    parsed,
    sessionExpiresAt: Date.parse(parsed.session.session.expiresAt),
  };
  verifiedCookieCaches.set(raw, verified);
  return verified;
}

async function readCookieCache(ctx: AuthContext, token: string): Promise<CachedSession | null> {
  const raw = ctx.readCookie("session_data");
  if (!raw) return null;
  try {
    const verified = await verifiedCookieCache(ctx, raw);
    return verified && usableCookieCache(ctx, verified, token);
  } catch {
    return null;
  }
}

/** A verified cookie cache's session, if it is current and belongs to the session token sent. */
function usableCookieCache(
  ctx: AuthContext,
  { parsed, sessionExpiresAt }: VerifiedCookieCache,
  token: string,
): CachedSession | null {
  if (parsed.session.version !== CACHE_VERSION) return null;
  const now = ctx.now();
  if (parsed.expiresAt <= now) return null;
  if (parsed.session.session.token !== token) return null;
  if (sessionExpiresAt <= now) return null;
  return { session: parsed.session.session, user: parsed.session.user };
}

/**
 * The caller's session from a token and a cookie cache this isolate verified before, without a store
 * or the HMAC (decision 041); null when anything more is needed (loadSession answers).
 */
export function sessionFromMemory(ctx: AuthContext): CachedSession | null {
  const signed = signedCookie(ctx, "session_token");
  const token = signed === null ? null : verifiedBefore(signed, ctx.secret);
  if (token === null) return null;
  const raw = ctx.readCookie("session_data");
  const known = raw ? verifiedCookieCaches.get(raw) : undefined;
  if (!known || known.secret !== ctx.secret) return null;
  return usableCookieCache(ctx, known, token);
}

/**
 * get-session's answer body. A cookie cache verified here gives the same (never changed) record
 * objects on every request, so their JSON is kept with them; KV and D1 records are new each time.
 */
const answers = new WeakMap<SessionRecord, { user: UserRecord; json: string }>();

export function sessionAnswerJson(loaded: { session: SessionRecord; user: UserRecord }): string {
  const known = answers.get(loaded.session);
  if (known && known.user === loaded.user) return known.json;
  const json = JSON.stringify({ session: loaded.session, user: loaded.user });
  answers.set(loaded.session, { user: loaded.user, json });
  return json;
}

/* -------------------------------------------------------- get session */

interface LoadedSession {
  session: SessionRecord;
  user: UserRecord;
  row: SessionRow | null;
  userRow: UserRow | null;
}

/**
 * The caller's session: `fresh` always reads D1, else the cookie cache, then KV, then D1; a session
 * due for it slides unless `disableRefresh`. Only get-session passes `cookies: true`, as in 1.3.34,
 * whose session middleware drops other endpoints' Set-Cookie; then a dead session's three cookies
 * are cleared, and with `dont_remember` or `disableRefresh` nothing is refreshed or reissued.
 */
export async function loadSession(
  ctx: AuthContext,
  opts: { fresh?: boolean; disableRefresh?: boolean; disableCookieCache?: boolean; cookies?: boolean } = {},
): Promise<LoadedSession | null> {
  const token = await readSessionToken(ctx);
  if (!token) return null;
  const cookies = !!opts.cookies;
  const dead = () => {
    if (cookies) clearSessionCookies(ctx);
    return null;
  };
  if (!opts.fresh && !opts.disableCookieCache) {
    const fromCookie = await readCookieCache(ctx, token);
    if (fromCookie) return { ...fromCookie, row: null, userRow: null };
    const fromKv = await readKvCache(ctx, token);
    if (fromKv) {
      // As better-auth does after a read past the cookie cache: issue it again, so the next
      // requests of this browser are answered from the cookie (no KV read) for cacheMaxAge.
      if (cookies && !opts.disableRefresh && !(await readDontRemember(ctx))) {
        await writeCookieCache(ctx, fromKv, false);
      }
      return { ...fromKv, row: null, userRow: null };
    }
  }
  const { row, user } = await findSessionAndUser(ctx.db, token);
  if (!row) return dead();
  if (row.expires_at <= ctx.now()) {
    await deleteSessionRows(ctx, [row]);
    return dead();
  }
  if (!user) return dead();
  if (row.impersonated_by) {
    // DESIGN §3: an impersonator who lost the admin role ends the impersonation at once.
    const by = await findUserById(ctx.db, row.impersonated_by);
    const stillAdmin =
      !!by && isPlatformAdmin({ userId: by.id, role: by.role }, ctx.config.auth.adminUserIds);
    if (!stillAdmin) {
      await deleteSessionRows(ctx, [row]);
      return dead();
    }
  }
  const quiet = opts.disableRefresh || (await readDontRemember(ctx));
  const { expiresIn, updateAge } = ctx.config.session;
  const due = row.expires_at - expiresIn * 1000 + updateAge * 1000 <= ctx.now();
  if (due && !quiet && !row.impersonated_by) {
    row.expires_at = ctx.now() + expiresIn * 1000;
    row.updated_at = ctx.now();
    await ctx.db
      .prepare("UPDATE session SET expires_at = ?, updated_at = ? WHERE id = ?")
      .bind(row.expires_at, row.updated_at, row.id)
      .run();
    if (cookies) await setSessionCookies(ctx, row, token, user, false);
    return { session: toSession(row, token), user: toUser(user), row, userRow: user };
  }
  // The answer's records, made once for the cookie cache, the KV copy and the caller alike.
  const cached = toCached(row, token, user);
  if (cookies && !quiet) await writeCookieCache(ctx, cached, false);
  // KV is filled only after it was read and missed (a disableCookieCache read cannot know, and KV takes
  // one write a second per key); every change to a session or its user deletes the copy, so it is current.
  if (!opts.fresh && !opts.disableCookieCache) await putKvCache(ctx, row.token_hash, cached);
  return { session: cached.session, user: cached.user, row, userRow: user };
}

async function readKvCache(ctx: AuthContext, token: string): Promise<CachedSession | null> {
  const cached = await ctx.env.KV.get<CachedSession>(kvKey(sha256Hex(token)), "json");
  if (!cached) return null;
  if (Date.parse(cached.session.expiresAt) <= ctx.now()) return null;
  return cached;
}

/**
 * SPEC §4, as better-auth 1.3.34's freshSessionMiddleware: the last update (a refresh slides it),
 * else the creation, strictly younger than freshAge (0 disables the rule).
 */
export function isFresh(ctx: AuthContext, session: SessionRecord) {
  const freshAge = ctx.config.session.freshAge;
  if (freshAge === 0) return true;
  const lastUpdated = Date.parse(session.updatedAt) || Date.parse(session.createdAt);
  return ctx.now() - lastUpdated < freshAge * 1000;
}

/**
 * SPEC §6: delete-user without a password or mailed token needs a session created within the fresh
 * age; a refresh does not count (1.3.34's deleteUser checks createdAt).
 */
export function isYoungerThanFreshAge(ctx: AuthContext, session: SessionRecord) {
  const freshAge = ctx.config.session.freshAge;
  if (freshAge === 0) return true;
  return Date.parse(session.createdAt) >= ctx.now() - freshAge * 1000;
}

export async function requireSession(ctx: AuthContext, fresh = false) {
  const loaded = await loadSession(ctx, { fresh });
  if (!loaded) throw E.UNAUTHORIZED();
  return loaded;
}

/** Drops the cached copies of a user's sessions after a change to the user (role, ban, name…). */
export async function invalidateUserCache(ctx: AuthContext, userId: string) {
  const { results } = await ctx.db
    .prepare("SELECT token_hash FROM session WHERE user_id = ?")
    .bind(userId)
    .all<{ token_hash: string }>();
  await Promise.all(results.map((r) => ctx.env.KV.delete(kvKey(r.token_hash))));
}

export async function decryptSessionToken(ctx: AuthContext, row: SessionRow) {
  return decryptString(ctx.secret, row.token_enc);
}
