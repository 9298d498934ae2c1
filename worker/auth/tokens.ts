/**
 * Single-use tokens sent by mail (verification, change-email, reset, delete): only a SHA-256 of the
 * token is stored, and using one is one atomic DELETE … RETURNING, so two clicks cannot both win.
 */
import type { AuthContext } from "./core";
import { generateId, sha256Hex } from "./crypto";

export type TokenPurpose = "verify-email" | "reset-password" | "delete-account";

export async function storeToken(
  ctx: AuthContext,
  purpose: TokenPurpose,
  token: string,
  value: unknown,
  expiresIn: number,
) {
  const now = ctx.now();
  await ctx.db
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
    )
    .run();
}

export async function peekToken<T>(ctx: AuthContext, purpose: TokenPurpose, token: string) {
  const row = await ctx.db
    .prepare("SELECT value, expires_at FROM verification WHERE identifier = ?")
    .bind(`${purpose}:${sha256Hex(token)}`)
    .first<{ value: string; expires_at: number }>();
  if (!row || row.expires_at <= ctx.now()) return null;
  return JSON.parse(row.value) as T;
}

export type Consumed<T> = { status: "ok"; value: T } | { status: "expired" } | { status: "invalid" };

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
