/**
 * Single-use tokens sent by mail (verification, change-email, reset, delete): only a SHA-256 of the
 * token is stored, and using one is one atomic DELETE … RETURNING, so two clicks cannot both win.
 * Rows are `identifier = "<purpose>:<sha256(token)>"`, `value` = JSON with the `userId`.
 */

import { generateId } from "../lib/ids";
import type { AuthContext } from "./core";
import { sha256Hex } from "./crypto";

type TokenPurpose = "verify-email" | "reset-password" | "delete-account";

/**
 * Deletes every token of `purpose` issued to `userId`: the range "<purpose>:" up to "<purpose>;" walks
 * the unique identifier index over that purpose's live rows, so no new index is needed.
 */
export function dropUserTokensStatement(ctx: AuthContext, purpose: TokenPurpose, userId: string) {
  return ctx.db
    .prepare(
      "DELETE FROM verification WHERE identifier >= ?1 AND identifier < ?2 AND json_extract(value, '$.userId') = ?3",
    )
    .bind(`${purpose}:`, `${purpose};`, userId);
}

export async function storeToken(
  ctx: AuthContext,
  purpose: TokenPurpose,
  token: string,
  value: { userId: string } & Record<string, unknown>,
  expiresIn: number,
  opts: { replacePrevious?: boolean } = {},
) {
  const now = ctx.now();
  const insert = ctx.db
    .prepare(
      "INSERT INTO verification (id, identifier, value, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(
      generateId(),
      `${purpose}:${sha256Hex(token)}`,
      JSON.stringify(value),
      now + expiresIn * 1000,
      now,
      now,
    );
  // `replacePrevious` (reset links, decision 018): the user's older tokens of this purpose die in
  // the same transaction the new one is stored in, so at most one is ever valid.
  if (opts.replacePrevious) await ctx.db.batch([dropUserTokensStatement(ctx, purpose, value.userId), insert]);
  else await insert.run();
}

export async function peekToken<T>(ctx: AuthContext, purpose: TokenPurpose, token: string) {
  const row = await ctx.db
    .prepare("SELECT value, expires_at FROM verification WHERE identifier = ?")
    .bind(`${purpose}:${sha256Hex(token)}`)
    .first<{ value: string; expires_at: number }>();
  if (!row || row.expires_at <= ctx.now()) return null;
  return JSON.parse(row.value) as T;
}

type Consumed<T> = { status: "ok"; value: T } | { status: "expired" } | { status: "invalid" };

export async function consumeToken<T>(
  ctx: AuthContext,
  purpose: TokenPurpose,
  token: string,
): Promise<Consumed<T>> {
  if (!token) return { status: "invalid" };
  const row = await ctx.db
    .prepare("DELETE FROM verification WHERE identifier = ? RETURNING value, expires_at")
    .bind(`${purpose}:${sha256Hex(token)}`)
    .first<{ value: string; expires_at: number }>();
  if (!row) return { status: "invalid" };
  if (row.expires_at <= ctx.now()) return { status: "expired" };
  return { status: "ok", value: JSON.parse(row.value) as T };
}
