/**
 * OAuth state as a verification value (SPEC §4/§9), stored under a hash of the state, AES-GCM
 * encrypted, 10 minutes; consumed by one DELETE … RETURNING, so a replayed callback finds nothing.
 * A signed cookie ties the state to the browser that started it.
 */

import { generateId, randomString } from "../../lib/ids";
import type { AuthContext } from "../core";
import { decryptString, encryptString, sha256Hex, signCookieValue, verifyCookieValue } from "../crypto";
import { E } from "../errors";

interface OAuthState {
  providerId: string;
  codeVerifier: string;
  redirectURI: string;
  callbackURL: string;
  errorURL?: string;
  newUserURL?: string;
  link?: { email: string; userId: string };
  requestSignUp?: boolean;
  scopes: string[];
}

const PKCE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
const identifier = (state: string) => `oauth-state:${sha256Hex(state)}`;
const STATE_COOKIE = "state";

export function newCodeVerifier(ctx: AuthContext) {
  return randomString(ctx.config.oauth.codeVerifierLength, PKCE_ALPHABET);
}

/**
 * better-auth 1.3.34's generateState: no callback URL to come back to is a 400; a state that
 * could not be stored is a 500 "Unable to create verification" (never a generic failure).
 */
export async function createState(ctx: AuthContext, value: OAuthState): Promise<string> {
  if (!value.callbackURL) throw E.CALLBACK_URL_REQUIRED();
  const state = randomString(ctx.config.oauth.stateLength);
  const now = ctx.now();
  const life = ctx.config.oauth.stateExpiresIn;
  const stored = await ctx.db
    .prepare(
      "INSERT INTO verification (id, identifier, value, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(
      generateId(),
      identifier(state),
      await encryptString(ctx.secret, JSON.stringify(value)),
      now + life * 1000,
      now,
      now,
    )
    .run()
    .catch((error) => {
      console.error("oauth state not stored", error);
      return null;
    });
  if (!stored) throw E.UNABLE_TO_CREATE_VERIFICATION();
  ctx.setCookie(STATE_COOKIE, encodeURIComponent(await signCookieValue(state, ctx.secret)), life);
  return state;
}

type StateResult = { status: "ok"; value: OAuthState } | { status: "invalid" } | { status: "expired" };

/** Consumes (deletes) the state whatever the outcome; expired and unknown states both fail. */
export async function consumeState(ctx: AuthContext, state: string): Promise<StateResult> {
  const row = await ctx.db
    .prepare("DELETE FROM verification WHERE identifier = ? RETURNING value, expires_at")
    .bind(identifier(state))
    .first<{ value: string; expires_at: number }>();
  if (!row) return { status: "invalid" };
  if (row.expires_at <= ctx.now()) return { status: "expired" };
  // The browser that comes back must be the one that left.
  const raw = ctx.readCookie(STATE_COOKIE);
  let cookieState: string | null = null;
  try {
    cookieState = raw ? await verifyCookieValue(decodeURIComponent(raw), ctx.secret) : null;
  } catch {
    cookieState = null;
  }
  ctx.expireCookie(STATE_COOKIE);
  if (cookieState !== state) return { status: "invalid" };
  try {
    return { status: "ok", value: JSON.parse(await decryptString(ctx.secret, row.value)) as OAuthState };
  } catch {
    return { status: "invalid" };
  }
}

export { generateId };
