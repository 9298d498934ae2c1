/**
 * Accounts of social providers and the sign-in / linking rules of SPEC §4/§5 (better-auth 1.3's
 * handleOAuthUserInfo and link-social). Tokens are AES-GCM encrypted at rest; scopes are stored
 * comma-separated. Every write is one D1 batch with its audit row.
 */

import { safeHttpUrl } from "@core/url";
import type { Row } from "../../db/rows";
import type { account } from "../../db/schema";
import { type AuditAction, auditInsert } from "../../lib/audit";
import { generateId } from "../../lib/ids";
import { type AuthContext, findUserByEmail, findUserById, invalidateUserCache, type UserRow } from "../core";
import { decryptString, encryptString } from "../crypto";
import type { TokenSet } from "./client";
import type { SocialUserInfo } from "./providers";

/** A linked account as `SELECT *` returns it (worker/db/rows.ts). */
export type AccountRow = Row<typeof account>;

export function audit(
  ctx: AuthContext,
  actorId: string,
  action: AuditAction,
  entityId: string,
  after: unknown,
) {
  return auditInsert(ctx.db, {
    organizationId: null,
    actorId,
    action,
    entityType: "user",
    entityId,
    after,
    ip: ctx.ip(),
    at: ctx.now(),
  });
}

const enc = async (ctx: AuthContext, v: string | null) => (v ? await encryptString(ctx.secret, v) : null);
export const dec = async (ctx: AuthContext, v: string | null) => {
  if (!v) return null;
  try {
    return await decryptString(ctx.secret, v);
  } catch {
    return null;
  }
};

export async function findAccount(ctx: AuthContext, providerId: string, accountId: string) {
  return ctx.db
    .prepare("SELECT * FROM account WHERE provider_id = ? AND account_id = ?")
    .bind(providerId, accountId)
    .first<AccountRow>();
}

export async function userAccounts(ctx: AuthContext, userId: string) {
  const { results } = await ctx.db
    .prepare("SELECT * FROM account WHERE user_id = ? ORDER BY created_at")
    .bind(userId)
    .all<AccountRow>();
  return results;
}

async function insertAccount(
  ctx: AuthContext,
  userId: string,
  providerId: string,
  accountId: string,
  t: TokenSet,
) {
  const now = ctx.now();
  return ctx.db
    .prepare(
      `INSERT INTO account (id, account_id, provider_id, user_id, access_token, refresh_token, id_token, access_token_expires_at, refresh_token_expires_at, scope, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      generateId(),
      accountId,
      providerId,
      userId,
      await enc(ctx, t.accessToken),
      await enc(ctx, t.refreshToken),
      await enc(ctx, t.idToken),
      t.accessTokenExpiresAt,
      t.refreshTokenExpiresAt,
      t.scopes.join(","),
      now,
      now,
    );
}

/** New tokens replace the old; a response without a refresh token keeps the stored one. */
export async function updateTokens(ctx: AuthContext, accountRowId: string, t: TokenSet) {
  return ctx.db
    .prepare(
      `UPDATE account SET access_token = COALESCE(?, access_token), refresh_token = COALESCE(?, refresh_token),
         id_token = COALESCE(?, id_token), access_token_expires_at = ?, refresh_token_expires_at = COALESCE(?, refresh_token_expires_at),
         scope = CASE WHEN ? = '' THEN scope ELSE ? END, updated_at = ? WHERE id = ?`,
    )
    .bind(
      await enc(ctx, t.accessToken),
      await enc(ctx, t.refreshToken),
      await enc(ctx, t.idToken),
      t.accessTokenExpiresAt,
      t.refreshTokenExpiresAt,
      t.scopes.join(","),
      t.scopes.join(","),
      ctx.now(),
      accountRowId,
    );
}

/** SPEC §4: a social sign-in with a verified e-mail marks the user verified. */
function markVerified(ctx: AuthContext, user: UserRow, info: SocialUserInfo) {
  if (user.email_verified || !info.emailVerified || info.email?.toLowerCase() !== user.email) return [];
  user.email_verified = 1;
  return [
    ctx.db
      .prepare("UPDATE user SET email_verified = 1, updated_at = ? WHERE id = ?")
      .bind(ctx.now(), user.id),
  ];
}

type SignInOutcome =
  | { ok: true; user: UserRow; isNew: boolean }
  | { ok: false; error: "account not linked" | "signup disabled" | "unable to create user" };

const trusted = (ctx: AuthContext, providerId: string) =>
  ctx.config.social.trustedProviders.includes(providerId);

/** Finds or creates the user behind a provider profile (better-auth 1.3's handleOAuthUserInfo). */
export async function resolveSocialUser(
  ctx: AuthContext,
  providerId: string,
  info: SocialUserInfo & { email: string },
  tokens: TokenSet,
  opts: { requestSignUp?: boolean } = {},
): Promise<SignInOutcome> {
  const email = info.email.toLowerCase();
  const existing = await findAccount(ctx, providerId, info.id);
  if (existing) {
    const user = await findUserById(ctx.db, existing.user_id);
    if (user) {
      await ctx.db.batch([await updateTokens(ctx, existing.id, tokens), ...markVerified(ctx, user, info)]);
      await invalidateUserCache(ctx, user.id);
      return { ok: true, user, isNew: false };
    }
  }
  const user = await findUserByEmail(ctx.db, email);
  if (user) {
    if (!ctx.config.features.accountLinking || (!trusted(ctx, providerId) && !info.emailVerified)) {
      return { ok: false, error: "account not linked" };
    }
    await ctx.db.batch([
      await insertAccount(ctx, user.id, providerId, info.id, tokens),
      ...markVerified(ctx, user, info),
      audit(ctx, user.id, "account.link", user.id, { providerId, accountId: info.id, via: "sign-in" }),
    ]);
    await invalidateUserCache(ctx, user.id);
    return { ok: true, user, isNew: false };
  }
  const social = ctx.config.social;
  if (social.disableSignUp || (social.disableImplicitSignUp && !opts.requestSignUp)) {
    return { ok: false, error: "signup disabled" };
  }
  const now = ctx.now();
  const created: UserRow = {
    id: generateId(),
    name: info.name || email.split("@")[0] || email,
    email,
    email_verified: info.emailVerified ? 1 : 0,
    // A provider's picture is kept only as an http(s) URL (decision 019), like the auth API's image.
    image: safeHttpUrl(info.image),
    role: "user",
    banned: 0,
    ban_reason: null,
    ban_expires: null,
    active_organization_id: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await ctx.db.batch([
      ctx.db
        .prepare(
          "INSERT INTO user (id, name, email, email_verified, image, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'user', ?, ?)",
        )
        .bind(created.id, created.name, created.email, created.email_verified, created.image, now, now),
      await insertAccount(ctx, created.id, providerId, info.id, tokens),
      audit(ctx, created.id, "user.sign_up_social", created.id, { providerId, accountId: info.id }),
    ]);
  } catch (error) {
    console.error("social sign-up failed", error);
    return { ok: false, error: "unable to create user" };
  }
  return { ok: true, user: created, isNew: true };
}

type LinkOutcome =
  | { ok: true; already: boolean }
  | { ok: false; reason: "not_allowed" | "different_emails" | "linked_elsewhere" | "failed" };

/** SPEC §5: linking a provider account to the signed-in user. */
export async function linkToUser(
  ctx: AuthContext,
  providerId: string,
  info: SocialUserInfo,
  tokens: TokenSet,
  link: { userId: string; email: string },
): Promise<LinkOutcome> {
  const existing = await findAccount(ctx, providerId, info.id);
  if (existing && existing.user_id !== link.userId) return { ok: false, reason: "linked_elsewhere" };
  if (existing) {
    await (await updateTokens(ctx, existing.id, tokens)).run();
    return { ok: true, already: true };
  }
  if (!ctx.config.features.accountLinking || (!trusted(ctx, providerId) && !info.emailVerified)) {
    return { ok: false, reason: "not_allowed" };
  }
  if (info.email?.toLowerCase() !== link.email.toLowerCase() && !ctx.config.features.allowDifferentEmails) {
    return { ok: false, reason: "different_emails" };
  }
  const user = await findUserById(ctx.db, link.userId);
  if (!user) return { ok: false, reason: "failed" };
  try {
    await ctx.db.batch([
      await insertAccount(ctx, link.userId, providerId, info.id, tokens),
      ...markVerified(ctx, user, info),
      audit(ctx, link.userId, "account.link", link.userId, { providerId, accountId: info.id }),
    ]);
  } catch (error) {
    console.error("account link failed", error);
    return { ok: false, reason: "failed" };
  }
  await invalidateUserCache(ctx, link.userId);
  return { ok: true, already: false };
}
