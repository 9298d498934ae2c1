/**
 * The better-auth 1.3 admin plugin under /api/auth/admin (contract §6), guarded by the one
 * permissions module; its session always read from D1. Short handlers beside their body schemas.
 */

import { BAN_MAX_DAYS, BAN_REASON_MAX, IMPERSONATION_REASON_MAX } from "@core/limits";
import { hasPermission, isPlatformAdmin, type Permissions } from "@core/permissions";
import { httpUrl } from "@core/schemas";
import { z } from "zod";
import { type AuditAction, auditInsert } from "../lib/audit";
import { previousWriteLanded } from "../lib/guard";
import { generateId } from "../lib/ids";
import { containsSql, searchNeedle } from "../lib/list";
import { ownsNothingAloneSql, SOLE_OWNER_CODE, soleOwnerMessage } from "../organization/ownership/sole-owner";
import {
  type AuthContext,
  clearSessionCookies,
  createSessionWithCookies,
  decryptSessionToken,
  deleteSessionRows,
  deleteUserSessions,
  findSessionByToken,
  findUserByEmail,
  findUserById,
  invalidateUserCache,
  loadSession,
  type SessionRow,
  setSessionCookies,
  toSession,
  toUser,
  type UserRow,
} from "./core";
import { storePassword } from "./credentials";
import { hashPassword, signCookieValue, verifyCookieValue } from "./crypto";
import { anyBody, type Handler, ok } from "./endpoints";
import { AuthApiError, E } from "./errors";
import { readBody, readQuery } from "./guards";
import { checkNewPassword } from "./password-policy";

/** Audit rows for admin actions (DESIGN §3/§4): actor, impersonator, target, reason, IP, time. */
function audit(
  ctx: AuthContext,
  actorId: string,
  action: AuditAction,
  targetId: string,
  after?: unknown,
  reason?: string | null,
) {
  return auditInsert(ctx.db, {
    organizationId: null,
    actorId,
    action,
    entityType: "user",
    entityId: targetId,
    after,
    reason,
    ip: ctx.ip(),
    at: ctx.now(),
  });
}

async function requireAdmin(ctx: AuthContext, permissions: Permissions, code: string, message: string) {
  const loaded = await loadSession(ctx, { fresh: true });
  if (!loaded) throw E.UNAUTHORIZED();
  const ok = hasPermission({ userId: loaded.user.id, role: loaded.user.role }, permissions, {
    adminUserIds: ctx.config.auth.adminUserIds,
  });
  if (!ok) throw new AuthApiError(403, code, message);
  return loaded;
}

async function mustFindUser(ctx: AuthContext, id: string) {
  const user = await findUserById(ctx.db, id);
  if (!user) throw new AuthApiError(404, "USER_NOT_FOUND", "User not found");
  return user;
}

// A role string or list: a handful of short names (user.role holds them joined by commas).
const roleInput = z
  .union([z.string().min(1).max(200), z.array(z.string().min(1).max(40)).min(1).max(10)])
  .transform((r) => (Array.isArray(r) ? r : [r]).map((x) => x.trim()).join(","));

const searchFields = { email: "email", name: "name" } as const;
const sortable: Record<string, string> = {
  createdAt: "created_at",
  name: "name",
  email: "email",
  role: "role",
  updatedAt: "updated_at",
};
const filterable: Record<string, string> = {
  role: "role",
  banned: "banned",
  emailVerified: "email_verified",
  email: "email",
  name: "name",
  id: "id",
};

export const listUsers: Handler = async (ctx) => {
  await requireAdmin(
    ctx,
    { user: ["list"] },
    "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS",
    "You are not allowed to list users",
  );
  const q = readQuery(
    ctx,
    z
      .object({
        searchValue: z.string().optional(),
        searchField: z.enum(["email", "name"]).optional(),
        searchOperator: z.enum(["contains", "starts_with", "ends_with"]).optional(),
        limit: z.coerce.number().int().min(1).max(1000).optional(),
        offset: z.coerce.number().int().min(0).optional(),
        sortBy: z.string().optional(),
        sortDirection: z.enum(["asc", "desc"]).optional(),
        filterField: z.string().optional(),
        filterValue: z.string().optional(),
        filterOperator: z.enum(["eq", "ne", "lt", "lte", "gt", "gte", "contains"]).optional(),
      })
      .loose(),
  );
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.searchValue) {
    const col = searchFields[q.searchField ?? "email"];
    // A substring, prefix or suffix, ASCII case aside as better-auth's LIKE compares (lib/list.ts).
    const needle = searchNeedle(q.searchValue);
    const op = q.searchOperator ?? "contains";
    if (op === "contains") {
      where.push(containsSql(col));
      params.push(needle);
    } else {
      // The first or the last length(needle) characters (a negative start counts from the end).
      where.push(`substr(lower(${col}), ${op === "starts_with" ? "1, length(?)" : "-length(?)"}) = ?`);
      params.push(needle, needle);
    }
  }
  if (q.filterField && q.filterValue !== undefined) {
    const col = filterable[q.filterField];
    if (!col) throw E.VALIDATION_QUERY();
    const ops = { eq: "=", ne: "!=", lt: "<", lte: "<=", gt: ">", gte: ">=" } as const;
    let value: unknown = q.filterValue;
    if (col === "banned" || col === "email_verified") value = q.filterValue === "true" ? 1 : 0;
    // "contains" matches the value literally, as the search does.
    if (q.filterOperator === "contains") {
      where.push(containsSql(col));
      params.push(searchNeedle(String(value)));
    } else {
      where.push(`${col} ${ops[q.filterOperator ?? "eq"]} ?`);
      params.push(value);
    }
  }
  const whereSql = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const sortCol = sortable[q.sortBy ?? "createdAt"] ?? "created_at";
  const dir = q.sortDirection === "asc" ? "ASC" : "DESC";
  const limit = q.limit ?? 100;
  const offset = q.offset ?? 0;
  const [rows, count] = await ctx.db.batch([
    ctx.db
      .prepare(`SELECT * FROM user ${whereSql} ORDER BY ${sortCol} ${dir}, id ${dir} LIMIT ? OFFSET ?`)
      .bind(...params, limit, offset),
    ctx.db.prepare(`SELECT count(*) AS n FROM user ${whereSql}`).bind(...params),
  ]);
  const users = ((rows?.results ?? []) as UserRow[]).map(toUser);
  const total = (count?.results[0] as { n: number } | undefined)?.n ?? 0;
  // 1.3.34 echoes limit and offset only when they were asked for (and not 0).
  return ok(ctx, { users, total, limit: q.limit || undefined, offset: q.offset || undefined });
};

export const getUser: Handler = async (ctx) => {
  await requireAdmin(
    ctx,
    { user: ["get"] },
    "YOU_ARE_NOT_ALLOWED_TO_GET_USER",
    "You are not allowed to get user",
  );
  const q = readQuery(ctx, z.object({ id: z.string().min(1) }));
  return ok(ctx, toUser(await mustFindUser(ctx, q.id)));
};

export const createUser: Handler = async (ctx) => {
  const loaded = await loadSession(ctx, { fresh: true });
  if (!loaded) throw E.UNAUTHORIZED();
  const body = await readBody(
    ctx,
    z.object({
      email: z.string(),
      password: z.string(),
      name: z.string().trim().min(1),
      role: roleInput.optional(),
      data: z.record(z.string(), z.unknown()).optional(),
    }),
  );
  const caller = { userId: loaded.user.id, role: loaded.user.role };
  const opts = { adminUserIds: ctx.config.auth.adminUserIds };
  if (
    !hasPermission(caller, { user: ["create"] }, opts) ||
    (body.role && !hasPermission(caller, { user: ["set-role"] }, opts))
  ) {
    throw new AuthApiError(403, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS", "You are not allowed to create users");
  }
  const email = z.string().trim().toLowerCase().pipe(z.email()).safeParse(body.email);
  if (!email.success) throw E.VALIDATION_BODY();
  await checkNewPassword(ctx, body.password);
  if (await findUserByEmail(ctx.db, email.data)) {
    throw new AuthApiError(
      400,
      "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
      "User already exists. Use another email.",
    );
  }
  const now = ctx.now();
  const id = generateId();
  await ctx.db.batch([
    ctx.db
      .prepare(
        "INSERT INTO user (id, name, email, email_verified, role, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?)",
      )
      .bind(id, body.name, email.data, body.role ?? "user", now, now),
    ctx.db
      .prepare(
        "INSERT INTO account (id, account_id, provider_id, user_id, password, created_at, updated_at) VALUES (?, ?, 'credential', ?, ?, ?, ?)",
      )
      .bind(generateId(), id, id, await hashPassword(body.password), now, now),
  ]);
  return ok(ctx, { user: toUser((await findUserById(ctx.db, id)) as UserRow) });
};

export const adminUpdateUser: Handler = async (ctx) => {
  const loaded = await requireAdmin(
    ctx,
    { user: ["update"] },
    "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS",
    "You are not allowed to update users",
  );
  const body = await readBody(
    ctx,
    z.object({ userId: z.string().min(1), data: z.record(z.string(), z.unknown()) }),
  );
  const data = body.data;
  if (!Object.keys(data).length) throw new AuthApiError(400, "NO_DATA_TO_UPDATE", "No data to update");
  if ("password" in data)
    throw new AuthApiError(
      400,
      "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER",
      "Password cannot be updated via update user",
    );
  if ("id" in data) throw new AuthApiError(400, "USER_ID_CANNOT_BE_UPDATED", "User id cannot be updated");
  const parsed = z
    .object({
      name: z.string().trim().min(1).optional(),
      email: z.string().trim().toLowerCase().pipe(z.email()).optional(),
      emailVerified: z.boolean().optional(),
      image: z.nullable(httpUrl).optional(),
      role: roleInput.optional(),
    })
    .strict()
    .safeParse(data);
  if (!parsed.success) throw E.VALIDATION_BODY();
  const d = parsed.data;
  if (
    d.role !== undefined &&
    !hasPermission(
      { userId: loaded.user.id, role: loaded.user.role },
      { user: ["set-role"] },
      { adminUserIds: ctx.config.auth.adminUserIds },
    )
  ) {
    throw new AuthApiError(
      403,
      "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE",
      "You are not allowed to change users role",
    );
  }
  await mustFindUser(ctx, body.userId);
  if (d.email) {
    const other = await findUserByEmail(ctx.db, d.email);
    if (other && other.id !== body.userId) {
      throw new AuthApiError(
        400,
        "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
        "User already exists. Use another email.",
      );
    }
  }
  await ctx.db
    .prepare(
      `UPDATE user SET name = COALESCE(?, name), email = COALESCE(?, email),
         email_verified = COALESCE(?, email_verified), image = CASE WHEN ? THEN ? ELSE image END,
         role = COALESCE(?, role), updated_at = ? WHERE id = ?`,
    )
    .bind(
      d.name ?? null,
      d.email ?? null,
      d.emailVerified === undefined ? null : d.emailVerified ? 1 : 0,
      d.image !== undefined ? 1 : 0,
      d.image ?? null,
      d.role ?? null,
      ctx.now(),
      body.userId,
    )
    .run();
  await invalidateUserCache(ctx, body.userId);
  return ok(ctx, toUser((await findUserById(ctx.db, body.userId)) as UserRow));
};

export const setRole: Handler = async (ctx) => {
  const admin = await requireAdmin(
    ctx,
    { user: ["set-role"] },
    "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE",
    "You are not allowed to change users role",
  );
  const body = await readBody(ctx, z.object({ userId: z.string().min(1), role: roleInput }));
  const before = await mustFindUser(ctx, body.userId);
  await ctx.db.batch([
    ctx.db
      .prepare("UPDATE user SET role = ?, updated_at = ? WHERE id = ?")
      .bind(body.role, ctx.now(), body.userId),
    audit(ctx, admin.user.id, "user.set_role", body.userId, { before: before.role, role: body.role }),
  ]);
  await invalidateUserCache(ctx, body.userId);
  return ok(ctx, { user: toUser((await findUserById(ctx.db, body.userId)) as UserRow) });
};

export const banUser: Handler = async (ctx) => {
  const loaded = await requireAdmin(
    ctx,
    { user: ["ban"] },
    "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS",
    "You are not allowed to ban users",
  );
  const body = await readBody(
    ctx,
    z.object({
      userId: z.string().min(1),
      banReason: z.string().max(BAN_REASON_MAX).optional(),
      // Seconds; at most 50 years, so the expiry stays an instant pages can show (decision 019).
      banExpiresIn: z
        .number()
        .int()
        .positive()
        .max(BAN_MAX_DAYS * 86_400)
        .optional(),
    }),
  );
  if (body.userId === loaded.user.id)
    throw new AuthApiError(400, "YOU_CANNOT_BAN_YOURSELF", "You cannot ban yourself");
  await mustFindUser(ctx, body.userId);
  const expires = body.banExpiresIn ? ctx.now() + body.banExpiresIn * 1000 : null;
  await ctx.db.batch([
    ctx.db
      .prepare("UPDATE user SET banned = 1, ban_reason = ?, ban_expires = ?, updated_at = ? WHERE id = ?")
      .bind(body.banReason ?? "No reason", expires, ctx.now(), body.userId),
    audit(
      ctx,
      loaded.user.id,
      "user.ban",
      body.userId,
      { banExpires: expires },
      body.banReason ?? "No reason",
    ),
  ]);
  // Every session of a banned user ends at once (including cached copies).
  await deleteUserSessions(ctx, body.userId);
  return ok(ctx, { user: toUser((await findUserById(ctx.db, body.userId)) as UserRow) });
};

export const unbanUser: Handler = async (ctx) => {
  const admin = await requireAdmin(
    ctx,
    { user: ["ban"] },
    "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS",
    "You are not allowed to ban users",
  );
  const body = await readBody(ctx, z.object({ userId: z.string().min(1) }));
  await mustFindUser(ctx, body.userId);
  await ctx.db.batch([
    ctx.db
      .prepare(
        "UPDATE user SET banned = 0, ban_reason = NULL, ban_expires = NULL, updated_at = ? WHERE id = ?",
      )
      .bind(ctx.now(), body.userId),
    audit(ctx, admin.user.id, "user.unban", body.userId),
  ]);
  return ok(ctx, { user: toUser((await findUserById(ctx.db, body.userId)) as UserRow) });
};

export const listUserSessions: Handler = async (ctx) => {
  await requireAdmin(
    ctx,
    { session: ["list"] },
    "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS",
    "You are not allowed to list users sessions",
  );
  const body = await readBody(ctx, z.object({ userId: z.string().min(1) }));
  const { results } = await ctx.db
    .prepare("SELECT * FROM session WHERE user_id = ? AND expires_at > ? ORDER BY created_at DESC")
    .bind(body.userId, ctx.now())
    .all<SessionRow>();
  const sessions = await Promise.all(
    results.map(async (r) => toSession(r, await decryptSessionToken(ctx, r))),
  );
  return ok(ctx, { sessions });
};

export const revokeUserSession: Handler = async (ctx) => {
  await requireAdmin(
    ctx,
    { session: ["revoke"] },
    "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS",
    "You are not allowed to revoke users sessions",
  );
  const body = await readBody(ctx, z.object({ sessionToken: z.string().min(1) }));
  const row = await findSessionByToken(ctx.db, body.sessionToken);
  if (row) await deleteSessionRows(ctx, [row]);
  return ok(ctx, { success: true });
};

export const revokeUserSessions: Handler = async (ctx) => {
  await requireAdmin(
    ctx,
    { session: ["revoke"] },
    "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS",
    "You are not allowed to revoke users sessions",
  );
  const body = await readBody(ctx, z.object({ userId: z.string().min(1) }));
  await deleteUserSessions(ctx, body.userId);
  return ok(ctx, { success: true });
};

export const removeUser: Handler = async (ctx) => {
  const loaded = await requireAdmin(
    ctx,
    { user: ["delete"] },
    "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS",
    "You are not allowed to delete users",
  );
  const body = await readBody(ctx, z.object({ userId: z.string().min(1) }));
  if (body.userId === loaded.user.id)
    throw new AuthApiError(400, "YOU_CANNOT_REMOVE_YOURSELF", "You cannot remove yourself");
  const target = await mustFindUser(ctx, body.userId);
  // As for deleting one's own account (decision 046): not the only owner of an organization, checked
  // again in the write so a concurrent step-down of the other owner cannot leave it without one.
  const refusal = await soleOwnerMessage(ctx.db, body.userId, target.email);
  if (refusal) throw new AuthApiError(409, SOLE_OWNER_CODE, refusal);
  const [deleted] = await ctx.db.batch([
    ctx.db.prepare(`DELETE FROM user WHERE id = ?1 AND ${ownsNothingAloneSql("?1")}`).bind(body.userId),
    auditInsert(
      ctx.db,
      {
        organizationId: null,
        actorId: loaded.user.id,
        action: "user.remove",
        entityType: "user",
        entityId: body.userId,
        ip: ctx.ip(),
        at: ctx.now(),
      },
      previousWriteLanded,
    ),
  ]);
  if (!deleted?.meta.changes) {
    const now = await soleOwnerMessage(ctx.db, body.userId, target.email);
    if (now) throw new AuthApiError(409, SOLE_OWNER_CODE, now);
  }
  await deleteUserSessions(ctx, body.userId);
  return ok(ctx, { success: true });
};

export const setUserPassword: Handler = async (ctx) => {
  const admin = await requireAdmin(
    ctx,
    { user: ["set-password"] },
    "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD",
    "You are not allowed to set users password",
  );
  const body = await readBody(ctx, z.object({ userId: z.string().min(1), newPassword: z.string() }));
  await checkNewPassword(ctx, body.newPassword);
  const user = await mustFindUser(ctx, body.userId);
  // The hash, the retired reset links and the audit row in one batch; then the owner is told.
  await storePassword(ctx, user, body.newPassword, {
    also: [audit(ctx, admin.user.id, "user.set_password", body.userId)],
  });
  return ok(ctx, { status: true });
};

/**
 * As 1.3 over HTTP: 401 without a session, else about the signed-in user; the body's `userId` and
 * `role` are accepted for the shape but never looked up, so nobody learns another account's rights.
 */
export const hasPermissionEndpoint: Handler = async (ctx) => {
  const body = await readBody(
    ctx,
    z.object({
      permissions: z.record(z.string(), z.array(z.string())).optional(),
      permission: z.record(z.string(), z.array(z.string())).optional(),
      userId: z.string().optional(),
      role: z.string().optional(),
    }),
  );
  const permissions = body.permissions ?? body.permission;
  if (!permissions || (body.permissions && body.permission)) {
    throw new AuthApiError(400, "INVALID_PERMISSION_CHECK", "Invalid access control request");
  }
  const loaded = await loadSession(ctx, { fresh: true });
  if (!loaded) throw E.UNAUTHORIZED();
  const success = hasPermission(
    { userId: loaded.user.id, role: loaded.user.role },
    permissions as Permissions,
    { adminUserIds: ctx.config.auth.adminUserIds },
  );
  return ok(ctx, { error: null, success });
};

/* ------------------------------------------------------------ impersonation */

export const impersonateUser: Handler = async (ctx) => {
  const loaded = await requireAdmin(
    ctx,
    { user: ["impersonate"] },
    "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS",
    "You are not allowed to impersonate users",
  );
  // `reason` is an optional extra field: a contract client that sends none still works.
  const body = await readBody(
    ctx,
    z.object({
      userId: z.string().min(1),
      reason: z.string().trim().max(IMPERSONATION_REASON_MAX).optional(),
    }),
  );
  if (loaded.session.impersonatedBy) {
    throw new AuthApiError(
      400,
      "ALREADY_IMPERSONATING",
      "Stop impersonating before impersonating someone else",
    );
  }
  const target = await mustFindUser(ctx, body.userId);
  if (target.id === loaded.user.id)
    throw new AuthApiError(400, "YOU_CANNOT_IMPERSONATE_YOURSELF", "You cannot impersonate yourself");
  // DESIGN §3: never another admin, never a banned user.
  if (isPlatformAdmin({ userId: target.id, role: target.role }, ctx.config.auth.adminUserIds)) {
    throw new AuthApiError(403, "YOU_CANNOT_IMPERSONATE_ADMINS", "You cannot impersonate admins");
  }
  if (target.banned)
    throw new AuthApiError(
      403,
      "YOU_CANNOT_IMPERSONATE_BANNED_USERS",
      "You cannot impersonate a banned user",
    );
  const adminToken = loaded.session.token;
  const dontRememberRaw = ctx.readCookie("dont_remember") ?? "";
  // 1.3.34's sequence: the admin's cookies are cleared, then the impersonation's are set.
  clearSessionCookies(ctx);
  const created = await createSessionWithCookies(ctx, target, {
    dontRemember: true,
    impersonatedBy: loaded.user.id,
    expiresIn: ctx.config.session.impersonationExpiresIn,
  });
  await audit(ctx, loaded.user.id, "user.impersonate", target.id, undefined, body.reason ?? null).run();
  ctx.setCookie(
    "admin_session",
    encodeURIComponent(await signCookieValue(`${adminToken}:${dontRememberRaw}`, ctx.secret)),
    ctx.config.session.expiresIn,
  );
  return ok(ctx, { session: created.session, user: created.user });
};

export const stopImpersonating: Handler = async (ctx) => {
  await readBody(ctx, anyBody);
  const loaded = await loadSession(ctx, { fresh: true, disableRefresh: true });
  if (!loaded) throw E.UNAUTHORIZED();
  if (!loaded.session.impersonatedBy || !loaded.row) {
    throw new AuthApiError(400, "YOU_ARE_NOT_IMPERSONATING_ANYONE", "You are not impersonating anyone");
  }
  await deleteSessionRows(ctx, [loaded.row]);
  const raw = ctx.readCookie("admin_session");
  const value = raw ? await verifyCookieValue(decodeURIComponent(raw), ctx.secret) : null;
  const adminToken = value?.split(":")[0];
  const adminRow = adminToken ? await findSessionByToken(ctx.db, adminToken) : null;
  ctx.expireCookie("admin_session");
  if (
    !adminToken ||
    !adminRow ||
    adminRow.expires_at <= ctx.now() ||
    adminRow.user_id !== loaded.session.impersonatedBy
  ) {
    clearSessionCookies(ctx);
    throw new AuthApiError(500, "FAILED_TO_FIND_ADMIN_SESSION", "Failed to find admin session");
  }
  const admin = (await findUserById(ctx.db, adminRow.user_id)) as UserRow;
  await audit(ctx, admin.id, "user.stop_impersonating", loaded.user.id).run();
  const dontRemember = !!value?.split(":")[1];
  ctx.expireCookie("dont_remember");
  await setSessionCookies(ctx, adminRow, adminToken, admin, dontRemember);
  return ok(ctx, { session: toSession(adminRow, adminToken), user: toUser(admin) });
};

export { clearSessionCookies, createSessionWithCookies };
