/**
 * The better-auth 1.3 endpoints under /api/auth (SPEC §7) but social sign-in and the admin plugin, as
 * docs/steering/research/better-auth-contract.md says; each short handler beside its body schema.
 */

import { httpUrl } from "@core/schemas";
import { queryValue, referenceFor, withSearchParams } from "@core/trusted-url";
import { z } from "zod";
import { generateId, randomString } from "../lib/ids";
import { getMailer, renderMail } from "../mail";
import { ownsNothingAloneSql, SOLE_OWNER_CODE, soleOwnerMessage } from "../organization/ownership/sole-owner";
import {
  type AuthContext,
  assertNotBanned,
  clearSessionCookies,
  createSessionWithCookies,
  decryptSessionToken,
  deleteSessionRows,
  deleteUserSessions,
  findSessionByToken,
  findUserByEmail,
  findUserById,
  invalidateUserCache,
  isFresh,
  isYoungerThanFreshAge,
  loadSession,
  readDontRemember,
  readSessionToken,
  requireSession,
  type SessionRow,
  sessionAnswerJson,
  setSessionCookies,
  toPublicUser,
  toSession,
  toUser,
  type UserRow,
} from "./core";
import { storePassword } from "./credentials";
import { BoundedMemo, burnPasswordCheck, generateDeleteToken, hashPassword, verifyPassword } from "./crypto";
import { AuthApiError, apiError, E } from "./errors";
import { checkUrls, isTrustedUrl, readBody, readQuery, resolveTrustedUrl } from "./guards";
import { checkNewPassword } from "./password-policy";
import { consumeToken, peekToken, storeToken } from "./tokens";

export type Handler = (ctx: AuthContext) => Promise<Response>;

/** DESIGN §3: credential and e-mail changes are refused while an admin impersonates. */
function refuseWhileImpersonating(session: { impersonatedBy: string | null }) {
  if (session.impersonatedBy) throw new AuthApiError(403, "IMPERSONATION_RESTRICTED", "Not authorized");
}

export function ok(ctx: AuthContext, body: unknown, status = 200): Response {
  return okJson(ctx, JSON.stringify(body), status);
}

/** `ok` for a body already serialized. */
function okJson(ctx: AuthContext, json: string, status = 200): Response {
  ctx.headers.set("content-type", "application/json");
  return new Response(json, { status, headers: ctx.headers });
}

export function redirect(ctx: AuthContext, location: string): Response {
  ctx.headers.set("Location", location);
  return new Response(null, { status: 302, headers: ctx.headers });
}

/** A body-less endpoint's body: anything, ignored, but malformed JSON is a 400 (better-call reads all). */
export const anyBody = z.unknown();

const emailSchema = z.string().trim().toLowerCase().pipe(z.email());
const optionalUrl = z.string().optional();

/** Absolute URL for a trusted callback, resolving relative paths against the origin that was asked. */
export function absolute(ctx: AuthContext, url: string) {
  return new URL(url, ctx.url.origin).toString();
}

/** A trusted callback URL with one parameter set, never spelled as "//host" (core/trusted-url.ts). */
function withParam(ctx: AuthContext, url: string, key: string, value: string) {
  const trusted = resolveTrustedUrl(ctx, url);
  if (!trusted) throw new AuthApiError(403, "INVALID_CALLBACKURL", "Invalid callbackURL");
  return withSearchParams(url, trusted, { [key]: value });
}

/** Where to send the browser for a checked callback URL (its parsed form; see withParam). */
function callbackTarget(ctx: AuthContext, url: string) {
  const trusted = resolveTrustedUrl(ctx, url);
  if (!trusted) throw new AuthApiError(403, "INVALID_CALLBACKURL", "Invalid callbackURL");
  return referenceFor(url, trusted);
}

async function credentialAccount(ctx: AuthContext, userId: string) {
  return ctx.db
    .prepare("SELECT id, password FROM account WHERE user_id = ? AND provider_id = 'credential'")
    .bind(userId)
    .first<{ id: string; password: string | null }>();
}

/** Server-side only, like better-auth's `auth.api.setPassword` (not exposed over HTTP). */
export async function setPassword(ctx: AuthContext, userId: string, newPassword: string) {
  await checkNewPassword(ctx, newPassword);
  const existing = await credentialAccount(ctx, userId);
  if (existing?.password) throw new AuthApiError(400, "PASSWORD_ALREADY_SET", "user already has a password");
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AuthApiError(400, "USER_NOT_FOUND", "User not found");
  await storePassword(ctx, user, newPassword);
  return { status: true };
}

async function sendVerificationMail(
  ctx: AuthContext,
  user: { id: string; email: string; name: string },
  callbackURL?: string,
  extra: Record<string, unknown> = {},
) {
  const token = randomString(32);
  await storeToken(
    ctx,
    "verify-email",
    token,
    { userId: user.id, email: user.email, ...extra },
    ctx.config.tokens.verificationExpiresIn,
  );
  const url = `${ctx.config.app.url}${ctx.config.auth.basePath}/verify-email?token=${token}&callbackURL=${queryValue(callbackURL ?? "/")}`;
  const confirmation = extra.requestType === "change-email-confirmation";
  await getMailer(ctx.env).send(
    renderMail({
      to: user.email,
      subject: confirmation ? "Confirm your new e-mail address" : "Verify your e-mail address",
      intro: confirmation
        ? `Hello ${user.name}, someone asked to change the e-mail of your Almoner account to ${String(extra.updateTo)}. If that was you, confirm below.`
        : `Hello ${user.name}, please confirm that ${user.email} is your e-mail address.`,
      action: { label: confirmation ? "Approve the change" : "Verify e-mail", url },
      outro: `The link works once and expires in ${Math.round(ctx.config.tokens.verificationExpiresIn / 60)} minutes.`,
    }),
  );
}

/* ---------------------------------------------------------------- sign-up / sign-in */

const signUpBody = z.object({
  name: z.string().trim().min(1).max(200),
  // Checked below: 1.3.34 answers a missing or malformed address with INVALID_EMAIL.
  email: z.unknown().optional(),
  password: z.string(),
  // http(s) only (decision 019): better-auth's url() lets javascript: and data: through.
  image: z.nullable(httpUrl).optional(),
  callbackURL: optionalUrl,
  rememberMe: z.boolean().optional(),
});

export const signUpEmail: Handler = async (ctx) => {
  const body = await readBody(ctx, signUpBody);
  if (!ctx.config.features.emailAndPassword || !ctx.config.features.signUp) {
    throw new AuthApiError(
      400,
      "EMAIL_PASSWORD_SIGN_UP_DISABLED",
      "Email and password sign up is not enabled",
    );
  }
  checkUrls(ctx, body);
  const email = emailSchema.safeParse(body.email);
  if (!email.success) throw E.INVALID_EMAIL();
  await checkNewPassword(ctx, body.password);
  if (await findUserByEmail(ctx.db, email.data)) throw E.USER_ALREADY_EXISTS();
  const now = ctx.now();
  const user: UserRow = {
    id: generateId(),
    name: body.name,
    email: email.data,
    email_verified: 0,
    image: body.image ?? null,
    role: "user",
    banned: 0,
    ban_reason: null,
    ban_expires: null,
    active_organization_id: null,
    created_at: now,
    updated_at: now,
  };
  const hash = await hashPassword(body.password);
  try {
    await ctx.db.batch([
      ctx.db
        .prepare(
          "INSERT INTO user (id, name, email, email_verified, image, role, created_at, updated_at) VALUES (?, ?, ?, 0, ?, 'user', ?, ?)",
        )
        .bind(user.id, user.name, user.email, user.image, now, now),
      ctx.db
        .prepare(
          "INSERT INTO account (id, account_id, provider_id, user_id, password, created_at, updated_at) VALUES (?, ?, 'credential', ?, ?, ?, ?)",
        )
        .bind(generateId(), user.id, user.id, hash, now, now),
    ]);
  } catch (error) {
    // Two sign-ups racing for one address: the unique index decides, the loser gets the 422.
    if (String(error).includes("UNIQUE")) throw E.USER_ALREADY_EXISTS();
    throw error;
  }
  if (ctx.config.features.verificationEmail) {
    await sendVerificationMail(ctx, user, body.callbackURL);
  }
  // better-auth 1.3.34: with requireEmailVerification the account waits for the mail, no session.
  if (ctx.config.features.requireEmailVerification) {
    return ok(ctx, { token: null, user: toPublicUser(toUser(user)) });
  }
  const created = await createSessionWithCookies(ctx, user, {
    dontRemember: body.rememberMe === false,
  }).catch(sessionFailure(400));
  return ok(ctx, { token: created.token, user: toPublicUser(created.user) });
};

/** A session that could not be stored answers as better-auth 1.3.34 does at that endpoint. */
const sessionFailure = (status: number) => (error: unknown) => {
  if (error instanceof AuthApiError && error.code !== "FAILED_TO_CREATE_SESSION") throw error;
  throw E.FAILED_TO_CREATE_SESSION(status);
};

const signInBody = z.object({
  email: z.string(),
  password: z.string(),
  callbackURL: optionalUrl,
  rememberMe: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).optional(),
});

export const signInEmail: Handler = async (ctx) => {
  const body = await readBody(ctx, signInBody);
  if (!ctx.config.features.emailAndPassword) throw E.EMAIL_PASSWORD_DISABLED();
  checkUrls(ctx, body);
  const email = emailSchema.safeParse(body.email);
  if (!email.success) throw E.INVALID_EMAIL();
  // SPEC §5's length rule at sign-in too, where 1.3.34 answers 401 (a kept difference): it depends on
  // the input alone, so it tells nothing about the account, and an over-long password is never hashed.
  if (body.password.length < ctx.config.password.minLength) throw E.PASSWORD_TOO_SHORT();
  if (body.password.length > ctx.config.password.maxLength) throw E.PASSWORD_TOO_LONG();
  const user = await findUserByEmail(ctx.db, email.data);
  if (!user) {
    await burnPasswordCheck(body.password);
    throw E.INVALID_EMAIL_OR_PASSWORD();
  }
  const account = await credentialAccount(ctx, user.id);
  if (!account?.password) {
    await burnPasswordCheck(body.password);
    throw E.INVALID_EMAIL_OR_PASSWORD();
  }
  if (!(await verifyPassword(account.password, body.password))) throw E.INVALID_EMAIL_OR_PASSWORD();
  if (ctx.config.features.requireEmailVerification && !user.email_verified) throw E.EMAIL_NOT_VERIFIED();
  await assertNotBanned(ctx, user);
  const created = await createSessionWithCookies(ctx, user, {
    dontRemember: body.rememberMe === false,
  }).catch(sessionFailure(401));
  // 1.3.34's keys in its order; `url` is left out of the JSON when there is no callbackURL.
  return ok(ctx, {
    redirect: !!body.callbackURL,
    token: created.token,
    url: body.callbackURL,
    user: toPublicUser(created.user),
  });
};

/* ---------------------------------------------------------------- sessions */

const boolQuery = z
  .enum(["true", "false", ""])
  .optional()
  .transform((v) => v === "true");

const getSessionQuery = z.object({ disableCookieCache: boolQuery, disableRefresh: boolQuery }).loose();

/** get-session without a query string: both flags off (what the schema makes of none). */
const NO_SESSION_FLAGS = { disableCookieCache: false, disableRefresh: false };

/** get-session's flags by query string, kept after the schema's first pass (clients send a handful). */
const knownSessionFlags = new BoundedMemo<typeof NO_SESSION_FLAGS>(256);
function sessionFlags(ctx: AuthContext): typeof NO_SESSION_FLAGS {
  const known = knownSessionFlags.get(ctx.url.search);
  if (known) return known;
  const { disableCookieCache, disableRefresh } = readQuery(ctx, getSessionQuery);
  const flags = { disableCookieCache, disableRefresh };
  knownSessionFlags.set(ctx.url.search, flags);
  return flags;
}

/** Every get-session answer's headers besides its cookies (the answer from memory sends the same). */
export const SESSION_ANSWER_HEADERS: [string, string][] = [
  ["cache-control", "no-store"],
  ["content-type", "application/json"],
];

export const getSession: Handler = async (ctx) => {
  // Nearly every read carries no query string; the schema is for those that do.
  const q = ctx.url.search ? sessionFlags(ctx) : NO_SESSION_FLAGS;
  const loaded = await loadSession(ctx, {
    disableCookieCache: q.disableCookieCache,
    disableRefresh: q.disableRefresh,
    cookies: true,
  }).catch((error) => {
    // better-auth 1.3.34 answers any failure while reading the session this way.
    console.error("get-session failed", error);
    throw E.FAILED_TO_GET_SESSION(500);
  });
  for (const [name, value] of SESSION_ANSWER_HEADERS) ctx.headers.set(name, value);
  return new Response(loaded ? sessionAnswerJson(loaded) : "null", { headers: ctx.headers });
};

export const signOut: Handler = async (ctx) => {
  await readBody(ctx, anyBody);
  // better-auth 1.3.34: no (validly signed) session cookie is a 400, and no cookie is touched.
  if (!(await readSessionToken(ctx))) throw E.FAILED_TO_GET_SESSION(400);
  const loaded = await loadSession(ctx, { fresh: true, disableRefresh: true });
  if (loaded?.row) await deleteSessionRows(ctx, [loaded.row]);
  clearSessionCookies(ctx);
  return ok(ctx, { success: true });
};

async function userSessions(ctx: AuthContext, userId: string) {
  const { results } = await ctx.db
    .prepare("SELECT * FROM session WHERE user_id = ? AND expires_at > ? ORDER BY created_at DESC")
    .bind(userId, ctx.now())
    .all<SessionRow>();
  return results;
}

export const listSessions: Handler = async (ctx) => {
  const { user } = await requireSession(ctx);
  const rows = (await userSessions(ctx, user.id)).filter((r) => !r.impersonated_by);
  const out = await Promise.all(rows.map(async (r) => toSession(r, await decryptSessionToken(ctx, r))));
  return ok(ctx, out);
};

export const revokeSession: Handler = async (ctx) => {
  const { user, session } = await requireSession(ctx, true);
  const body = await readBody(ctx, z.object({ token: z.string().min(1) }));
  const row = await findSessionByToken(ctx.db, body.token);
  // 1.3.34: an unknown token is 400 (SPEC §8); another user's is 401.
  if (!row) throw new AuthApiError(400, "SESSION_NOT_FOUND", "Session not found");
  if (row.user_id !== user.id) throw E.UNAUTHORIZED();
  await deleteSessionRows(ctx, [row]);
  if (row.id === session.id) clearSessionCookies(ctx);
  return ok(ctx, { status: true });
};

export const revokeSessions: Handler = async (ctx) => {
  await readBody(ctx, anyBody);
  const { user } = await requireSession(ctx, true);
  await deleteUserSessions(ctx, user.id);
  clearSessionCookies(ctx);
  return ok(ctx, { status: true });
};

export const revokeOtherSessions: Handler = async (ctx) => {
  await readBody(ctx, anyBody);
  const { user, session } = await requireSession(ctx, true);
  await deleteUserSessions(ctx, user.id, session.id);
  return ok(ctx, { status: true });
};

/* ---------------------------------------------------------------- user */

const profileFields = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  image: z.nullable(httpUrl).optional(),
});

/** The admin plugin's user fields (`input: false`): 1.3.34 refuses a truthy value for them. */
const NOT_INPUT = ["role", "banned", "banReason", "banExpires"] as const;

/**
 * As 1.3.34: `email` and set admin fields are refused, other unknown keys ignored. Kept difference
 * (decision 023): `name` and `image` are checked, where 1.3.34 stores whatever is sent.
 */
export const updateUser: Handler = async (ctx) => {
  const loaded = await requireSession(ctx, true);
  const body = await readBody(ctx, z.record(z.string(), z.unknown()));
  if (body.email) throw new AuthApiError(400, "EMAIL_CAN_NOT_BE_UPDATED", "Email can not be updated");
  const refused = NOT_INPUT.find((key) => body[key]);
  if (refused) throw apiError(400, `${refused} is not allowed to be set`);
  const fields = profileFields.safeParse({ name: body.name, image: body.image });
  if (!fields.success) throw E.VALIDATION_BODY();
  const { name, image } = fields.data;
  if (name === undefined && image === undefined) throw E.NO_FIELDS_TO_UPDATE();
  const now = ctx.now();
  await ctx.db
    .prepare(
      "UPDATE user SET name = COALESCE(?, name), image = CASE WHEN ? THEN ? ELSE image END, updated_at = ? WHERE id = ?",
    )
    .bind(name ?? null, image !== undefined ? 1 : 0, image ?? null, now, loaded.user.id)
    .run();
  await refreshCookies(ctx, loaded.row as SessionRow, loaded.session.token);
  return ok(ctx, { status: true });
};

async function refreshCookies(ctx: AuthContext, row: SessionRow, token: string) {
  const user = await findUserById(ctx.db, row.user_id);
  if (!user) return;
  await invalidateUserCache(ctx, user.id);
  const dontRemember = await readDontRemember(ctx);
  await setSessionCookies(ctx, row, token, user, dontRemember);
}

const changePasswordBody = z.object({
  currentPassword: z.string(),
  newPassword: z.string(),
  revokeOtherSessions: z.boolean().optional(),
});

export const changePassword: Handler = async (ctx) => {
  const loaded = await requireSession(ctx, true);
  refuseWhileImpersonating(loaded.session);
  const body = await readBody(ctx, changePasswordBody);
  await checkNewPassword(ctx, body.newPassword);
  if (body.currentPassword.length > ctx.config.password.maxLength) throw E.PASSWORD_TOO_LONG();
  const account = await credentialAccount(ctx, loaded.user.id);
  if (!account?.password) throw E.CREDENTIAL_ACCOUNT_NOT_FOUND();
  if (!(await verifyPassword(account.password, body.currentPassword))) throw E.INVALID_PASSWORD();
  await storePassword(ctx, loaded.user, body.newPassword);
  let token: string | null = null;
  if (body.revokeOtherSessions) {
    await deleteUserSessions(ctx, loaded.user.id);
    const user = await findUserById(ctx.db, loaded.user.id);
    if (!user) throw E.UNAUTHORIZED();
    const created = await createSessionWithCookies(ctx, user, {
      dontRemember: await readDontRemember(ctx),
    }).catch(() => {
      throw E.FAILED_TO_GET_SESSION(500); // 1.3.34's answer when the new session is not created
    });
    token = created.token;
  }
  return ok(ctx, { token, user: toPublicUser(loaded.user) });
};

/* ---------------------------------------------------------------- e-mail verification */

const sendVerificationBody = z.object({ email: z.string(), callbackURL: optionalUrl });

export const sendVerificationEmail: Handler = async (ctx) => {
  if (!ctx.config.features.verificationEmail) throw E.VERIFICATION_DISABLED();
  const body = await readBody(ctx, sendVerificationBody);
  checkUrls(ctx, body);
  const email = emailSchema.safeParse(body.email);
  if (!email.success) throw E.VALIDATION_BODY();
  const loaded = await loadSession(ctx);
  if (loaded) {
    // 1.3.34's order and wording; better-call derives the codes from the messages.
    if (loaded.user.emailVerified) {
      throw new AuthApiError(
        400,
        "YOU_CAN_ONLY_SEND_A_VERIFICATION_EMAIL_TO_AN_UNVERIFIED_EMAIL",
        "You can only send a verification email to an unverified email",
      );
    }
    if (loaded.user.email !== email.data) {
      throw new AuthApiError(
        400,
        "YOU_CAN_ONLY_SEND_A_VERIFICATION_EMAIL_TO_YOUR_OWN_EMAIL",
        "You can only send a verification email to your own email",
      );
    }
    await sendVerificationMail(ctx, loaded.user, body.callbackURL);
    return ok(ctx, { status: true });
  }
  // Signed out: the same answer for unknown and verified addresses (no account enumeration).
  const user = await findUserByEmail(ctx.db, email.data);
  if (user && !user.email_verified) await sendVerificationMail(ctx, user, body.callbackURL);
  return ok(ctx, { status: true });
};

interface VerifyValue {
  userId: string;
  email: string;
  updateTo?: string;
  requestType?: "change-email-confirmation";
}

export const verifyEmail: Handler = async (ctx) => {
  const q = readQuery(ctx, z.object({ token: z.string(), callbackURL: optionalUrl }));
  if (q.callbackURL && !isTrustedUrl(ctx, q.callbackURL)) {
    throw new AuthApiError(403, "INVALID_CALLBACKURL", "Invalid callbackURL");
  }
  const fail = (status: number, code: string, message: string, redirectCode: string) =>
    q.callbackURL
      ? redirect(ctx, withParam(ctx, q.callbackURL, "error", redirectCode))
      : (() => {
          throw new AuthApiError(status, code, message);
        })();
  const consumed = await consumeToken<VerifyValue>(ctx, "verify-email", q.token);
  // 1.3.34 puts the redirect code in the message too (better-call derives the code from it).
  if (consumed.status === "expired") return fail(401, "TOKEN_EXPIRED", "token_expired", "token_expired");
  if (consumed.status === "invalid") return fail(401, "INVALID_TOKEN", "invalid_token", "invalid_token");
  const value = consumed.value;
  const user = await findUserById(ctx.db, value.userId);
  if (!user) return fail(401, "USER_NOT_FOUND", "user_not_found", "user_not_found");
  if (user.email !== value.email) return fail(401, "UNAUTHORIZED", "unauthorized", "unauthorized");
  const now = ctx.now();
  const changed = value.requestType === "change-email-confirmation" && !!value.updateTo;
  if (changed && value.updateTo) {
    const taken = await findUserByEmail(ctx.db, value.updateTo);
    if (taken) return fail(400, "COULDNT_UPDATE_YOUR_EMAIL", "Couldn't update your email", "unauthorized");
    await ctx.db
      .prepare("UPDATE user SET email = ?, email_verified = 0, updated_at = ? WHERE id = ?")
      .bind(value.updateTo, now, user.id)
      .run();
    await invalidateUserCache(ctx, user.id);
    await sendVerificationMail(ctx, { id: user.id, email: value.updateTo, name: user.name }, q.callbackURL);
  } else {
    await ctx.db
      .prepare("UPDATE user SET email_verified = 1, updated_at = ? WHERE id = ?")
      .bind(now, user.id)
      .run();
    await invalidateUserCache(ctx, user.id);
  }
  const updated = await findUserById(ctx.db, user.id);
  const loaded = await loadSession(ctx, { fresh: true, disableRefresh: true });
  if (loaded?.row && loaded.row.user_id === user.id && updated) {
    await setSessionCookies(ctx, loaded.row, loaded.session.token, updated, await readDontRemember(ctx));
  }
  if (q.callbackURL) return redirect(ctx, callbackTarget(ctx, q.callbackURL));
  // 1.3.34 names the user after an e-mail change and answers `user: null` after a verification.
  return ok(ctx, { status: true, user: changed && updated ? toPublicUser(toUser(updated)) : null });
};

/* ---------------------------------------------------------------- password reset */

const resetRequestBody = z.object({ email: z.string(), redirectTo: optionalUrl });

async function requestReset(ctx: AuthContext) {
  if (!ctx.config.features.resetPassword) throw E.RESET_DISABLED();
  const body = await readBody(ctx, resetRequestBody);
  checkUrls(ctx, body);
  const email = emailSchema.safeParse(body.email);
  if (!email.success) throw E.VALIDATION_BODY();
  const user = await findUserByEmail(ctx.db, email.data);
  if (user) {
    const token = randomString(ctx.config.tokens.resetPasswordLength);
    // A new link retires the older ones (decision 018): only the newest mail resets the password.
    await storeToken(
      ctx,
      "reset-password",
      token,
      { userId: user.id },
      ctx.config.tokens.resetPasswordExpiresIn,
      { replacePrevious: true },
    );
    const url = `${ctx.config.app.url}${ctx.config.auth.basePath}/reset-password/${token}?callbackURL=${queryValue(body.redirectTo ?? "")}`;
    await getMailer(ctx.env).send(
      renderMail({
        to: user.email,
        subject: "Reset your password",
        intro: `Hello ${user.name}, we received a request to reset the password of your Almoner account.`,
        action: { label: "Choose a new password", url },
        outro: "If you did not ask for this, ignore this message: your password stays as it is.",
      }),
    );
  }
  return !!user;
}

export const requestPasswordReset: Handler = async (ctx) => {
  await requestReset(ctx);
  return ok(ctx, {
    status: true,
    message: "If this email exists in our system, check your email for the reset link",
  });
};

/**
 * 1.3.34's /forget-password: `{status:true}` when a mail went out, else /request-password-reset's
 * message (sign-up's 422 tells as much already, and both are rate limited per account).
 */
export const forgetPassword: Handler = async (ctx) => {
  const sent = await requestReset(ctx);
  return ok(
    ctx,
    sent
      ? { status: true }
      : { status: true, message: "If this email exists in our system, check your email for the reset link" },
  );
};

export const resetPasswordLink =
  (token: string): Handler =>
  async (ctx) => {
    // callbackURL is required as in 1.3.34 (400 without it). Our mails always carry it; an empty
    // one (a reset asked without redirectTo) leads to the portal's own reset page.
    const q = readQuery(ctx, z.object({ callbackURL: z.string() }).loose());
    if (q.callbackURL && !isTrustedUrl(ctx, q.callbackURL)) {
      throw new AuthApiError(403, "INVALID_CALLBACKURL", "Invalid callbackURL");
    }
    const valid = await peekToken<{ userId: string }>(ctx, "reset-password", token);
    if (!q.callbackURL) {
      return redirect(
        ctx,
        valid ? `/reset-password?token=${token}` : `${ctx.config.auth.basePath}/error?error=INVALID_TOKEN`,
      );
    }
    return redirect(
      ctx,
      absolute(
        ctx,
        withParam(ctx, q.callbackURL, valid ? "token" : "error", valid ? token : "INVALID_TOKEN"),
      ),
    );
  };

export const resetPassword: Handler = async (ctx) => {
  const body = await readBody(ctx, z.object({ newPassword: z.string(), token: z.string().optional() }));
  const token = body.token ?? ctx.url.searchParams.get("token") ?? "";
  if (!token) throw E.INVALID_TOKEN();
  // Before consuming: a refused password (too short, too common) keeps the link usable.
  await checkNewPassword(ctx, body.newPassword);
  const consumed = await consumeToken<{ userId: string }>(ctx, "reset-password", token);
  if (consumed.status !== "ok") throw E.INVALID_TOKEN();
  const user = await findUserById(ctx.db, consumed.value.userId);
  if (!user) throw new AuthApiError(400, "USER_NOT_FOUND", "User not found");
  await storePassword(ctx, user, body.newPassword);
  if (ctx.config.features.revokeSessionsOnPasswordReset) await deleteUserSessions(ctx, user.id);
  return ok(ctx, { status: true });
};

/* ---------------------------------------------------------------- change e-mail */

export const changeEmail: Handler = async (ctx) => {
  if (!ctx.config.features.changeEmail) throw E.CHANGE_EMAIL_DISABLED();
  const loaded = await requireSession(ctx, true);
  refuseWhileImpersonating(loaded.session);
  const body = await readBody(ctx, z.object({ newEmail: z.string(), callbackURL: optionalUrl }));
  checkUrls(ctx, body);
  const email = emailSchema.safeParse(body.newEmail);
  if (!email.success) throw E.VALIDATION_BODY();
  if (email.data === loaded.user.email) throw E.EMAIL_IS_THE_SAME();
  if (await findUserByEmail(ctx.db, email.data)) {
    throw new AuthApiError(400, "COULDNT_UPDATE_YOUR_EMAIL", "Couldn't update your email");
  }
  if (!loaded.user.emailVerified) {
    // SPEC §4: an unverified user's address changes at once and a new verification mail goes out.
    await ctx.db
      .prepare("UPDATE user SET email = ?, updated_at = ? WHERE id = ?")
      .bind(email.data, ctx.now(), loaded.user.id)
      .run();
    await refreshCookies(ctx, loaded.row as SessionRow, loaded.session.token);
    if (ctx.config.features.verificationEmail) {
      await sendVerificationMail(ctx, { ...loaded.user, email: email.data }, body.callbackURL);
    }
    return ok(ctx, { status: true });
  }
  if (!ctx.config.features.verificationEmail) throw E.VERIFICATION_DISABLED();
  await sendVerificationMail(ctx, loaded.user, body.callbackURL, {
    updateTo: email.data,
    requestType: "change-email-confirmation",
  });
  return ok(ctx, { status: true });
};

/* ---------------------------------------------------------------- delete user */

/**
 * An organization's only owner keeps their account until they hand it on (decision 046): a 409 naming
 * the organizations, before anything is sent or consumed; `deleteUserNow`'s write holds it too.
 */
async function refuseSoleOwner(ctx: AuthContext, userId: string) {
  const message = await soleOwnerMessage(ctx.db, userId, "You");
  if (message) throw new AuthApiError(409, SOLE_OWNER_CODE, message);
}

async function deleteUserNow(ctx: AuthContext, userId: string) {
  const { results } = await ctx.db
    .prepare("SELECT id, token_hash FROM session WHERE user_id = ?")
    .bind(userId)
    .all<Pick<SessionRow, "id" | "token_hash">>();
  // Conditional on owning no organization alone as it runs: the other owner stepping down at the
  // same moment cannot leave an organization without one. Sessions go with the user (cascade).
  const deleted = await ctx.db
    .prepare(`DELETE FROM user WHERE id = ?1 AND ${ownsNothingAloneSql("?1")}`)
    .bind(userId)
    .run();
  // Nothing deleted and no refusal: the user was deleted meanwhile; the sessions still go.
  if (!deleted.meta.changes) await refuseSoleOwner(ctx, userId);
  await deleteSessionRows(ctx, results);
  clearSessionCookies(ctx);
}

export const deleteUser: Handler = async (ctx) => {
  if (!ctx.config.features.deleteUser) throw E.NOT_FOUND();
  const loaded = await requireSession(ctx, true);
  refuseWhileImpersonating(loaded.session);
  const body = await readBody(
    ctx,
    z.object({ callbackURL: optionalUrl, password: z.string().optional(), token: z.string().optional() }),
  );
  checkUrls(ctx, body);
  await refuseSoleOwner(ctx, loaded.user.id);
  if (body.password !== undefined) {
    if (body.password.length > ctx.config.password.maxLength) throw E.PASSWORD_TOO_LONG();
    const account = await credentialAccount(ctx, loaded.user.id);
    if (!account?.password) throw E.CREDENTIAL_ACCOUNT_NOT_FOUND();
    if (!(await verifyPassword(account.password, body.password))) throw E.INVALID_PASSWORD();
    await deleteUserNow(ctx, loaded.user.id);
    return ok(ctx, { success: true, message: "User deleted" });
  }
  if (body.token !== undefined) {
    const consumed = await consumeToken<{ userId: string }>(ctx, "delete-account", body.token);
    if (consumed.status !== "ok" || consumed.value.userId !== loaded.user.id) throw E.INVALID_TOKEN(404);
    await deleteUserNow(ctx, loaded.user.id);
    return ok(ctx, { success: true, message: "User deleted" });
  }
  if (isYoungerThanFreshAge(ctx, loaded.session)) {
    await deleteUserNow(ctx, loaded.user.id);
    return ok(ctx, { success: true, message: "User deleted" });
  }
  // A stale session may still delete through a link mailed to a verified address.
  if (!loaded.user.emailVerified) throw E.SESSION_EXPIRED();
  const token = generateDeleteToken(ctx.config.tokens.deleteAccountLength);
  await storeToken(
    ctx,
    "delete-account",
    token,
    { userId: loaded.user.id },
    ctx.config.tokens.deleteAccountExpiresIn,
  );
  const url = `${ctx.config.app.url}${ctx.config.auth.basePath}/delete-user/callback?token=${token}&callbackURL=${queryValue(body.callbackURL ?? "/")}`;
  await getMailer(ctx.env).send(
    renderMail({
      to: loaded.user.email,
      subject: "Confirm the deletion of your account",
      intro: `Hello ${loaded.user.name}, confirm that you want to delete your Almoner account. This cannot be undone.`,
      action: { label: "Delete my account", url },
    }),
  );
  return ok(ctx, { success: true, message: "Verification email sent" });
};

export const deleteUserCallback: Handler = async (ctx) => {
  if (!ctx.config.features.deleteUser) throw E.NOT_FOUND();
  const q = readQuery(ctx, z.object({ token: z.string(), callbackURL: optionalUrl }));
  if (q.callbackURL && !isTrustedUrl(ctx, q.callbackURL)) {
    throw new AuthApiError(403, "INVALID_CALLBACKURL", "Invalid callbackURL");
  }
  const loaded = await loadSession(ctx, { fresh: true });
  if (!loaded) throw new AuthApiError(404, "FAILED_TO_GET_USER_INFO", "Failed to get user info");
  // The link stays good: someone who hands their organization on first can still use it.
  await refuseSoleOwner(ctx, loaded.user.id);
  const consumed = await consumeToken<{ userId: string }>(ctx, "delete-account", q.token);
  if (consumed.status !== "ok" || consumed.value.userId !== loaded.user.id) throw E.INVALID_TOKEN(404);
  await deleteUserNow(ctx, loaded.user.id);
  if (q.callbackURL) return redirect(ctx, callbackTarget(ctx, q.callbackURL));
  return ok(ctx, { success: true, message: "User deleted" });
};

/* ---------------------------------------------------------------- accounts */

export const listAccounts: Handler = async (ctx) => {
  const { user } = await requireSession(ctx);
  const { results } = await ctx.db
    .prepare(
      "SELECT id, provider_id, account_id, scope, created_at, updated_at FROM account WHERE user_id = ? ORDER BY created_at",
    )
    .bind(user.id)
    .all<{
      id: string;
      provider_id: string;
      account_id: string;
      scope: string | null;
      created_at: number;
      updated_at: number;
    }>();
  return ok(
    ctx,
    results.map((a) => ({
      id: a.id,
      providerId: a.provider_id,
      createdAt: new Date(a.created_at).toISOString(),
      updatedAt: new Date(a.updated_at).toISOString(),
      accountId: a.account_id,
      scopes: a.scope
        ? a.scope
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    })),
  );
};

export const unlinkAccount: Handler = async (ctx) => {
  const loaded = await requireSession(ctx, true);
  refuseWhileImpersonating(loaded.session);
  const body = await readBody(
    ctx,
    z.object({ providerId: z.string().min(1), accountId: z.string().optional() }),
  );
  if (!isFresh(ctx, loaded.session)) throw E.SESSION_NOT_FRESH();
  const { results } = await ctx.db
    .prepare("SELECT id, provider_id, account_id FROM account WHERE user_id = ?")
    .bind(loaded.user.id)
    .all<{ id: string; provider_id: string; account_id: string }>();
  if (results.length === 1 && !ctx.config.features.allowUnlinkingAll) throw E.FAILED_TO_UNLINK_LAST_ACCOUNT();
  const target = results.find(
    (a) =>
      a.provider_id === body.providerId && (body.accountId === undefined || a.account_id === body.accountId),
  );
  if (!target) throw E.ACCOUNT_NOT_FOUND();
  await ctx.db.prepare("DELETE FROM account WHERE id = ?").bind(target.id).run();
  return ok(ctx, { status: true });
};

/* ---------------------------------------------------------------- pages */

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export const errorPage: Handler = async (ctx) => {
  const raw = ctx.url.searchParams.get("error") ?? "";
  const code = /^['A-Za-z0-9_-]+$/.test(raw) ? raw : "Unknown";
  const description = ctx.url.searchParams.get("error_description");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Error · Almoner</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f8fafc;color:#0f172a}main{max-width:28rem;padding:2rem;text-align:center}code{background:#e2e8f0;padding:.2rem .4rem;border-radius:.25rem}a{color:#0f766e}</style></head>
<body><main><h1>Something went wrong</h1><p>Sorry, we could not complete your request. Please try again.</p>
<p>Error code: <code>${escapeHtml(code)}</code></p>${description ? `<p>${escapeHtml(description)}</p>` : ""}
<p><a href="/">Return to Application</a></p></main></body></html>`;
  ctx.headers.set("content-type", "text/html; charset=utf-8");
  return new Response(html, { status: 200, headers: ctx.headers });
};

export const okEndpoint: Handler = async (ctx) => ok(ctx, { ok: true });

export { assertNotBanned };
