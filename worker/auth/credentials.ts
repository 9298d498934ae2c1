/**
 * Writing a password (decision 018): every path goes through `storePassword`, which in one batch sets
 * the hash and kills every pending reset link (an older mail must not undo the change), then tells the
 * owner. The caller checked the password first (`checkNewPassword`), so a refusal never half-writes.
 */

import { generateId } from "../lib/ids";
import { getMailer, renderMail } from "../mail";
import type { AuthContext } from "./core";
import { hashPassword } from "./crypto";
import { dropUserTokensStatement } from "./tokens";

interface PasswordOwner {
  id: string;
  email: string;
  name: string;
}

export async function storePassword(
  ctx: AuthContext,
  owner: PasswordOwner,
  newPassword: string,
  opts: { also?: D1PreparedStatement[] } = {},
) {
  const hash = await hashPassword(newPassword);
  const now = ctx.now();
  await ctx.db.batch([
    // Credential accounts are keyed (provider_id 'credential', account_id = the user id).
    ctx.db
      .prepare(
        `INSERT INTO account (id, account_id, provider_id, user_id, password, created_at, updated_at)
         VALUES (?1, ?2, 'credential', ?2, ?3, ?4, ?4)
         ON CONFLICT (provider_id, account_id) DO UPDATE SET password = excluded.password, updated_at = excluded.updated_at`,
      )
      .bind(generateId(), owner.id, hash, now),
    dropUserTokensStatement(ctx, "reset-password", owner.id),
    ...(opts.also ?? []),
  ]);
  await notifyPasswordChanged(ctx, owner);
}

/**
 * "Your password was changed", on every credential change (OWASP ASVS 6.2.x); the change is stored
 * already, so a failed mail is logged, not turned into an error.
 */
async function notifyPasswordChanged(ctx: AuthContext, owner: PasswordOwner) {
  const when = new Date(ctx.now()).toUTCString();
  try {
    await getMailer(ctx.env).send(
      renderMail({
        to: owner.email,
        subject: "Your password was changed",
        intro: `Hello ${owner.name}, the password of your ${ctx.config.app.name} account ${owner.email} was changed on ${when}.`,
        action: { label: "Reset your password", url: `${ctx.config.app.url}/forgot-password` },
        outro:
          "If you did not change it, reset your password at once with the link above: that signs every device out of your account. Then tell your organization's administrator.",
      }),
    );
  } catch (error) {
    console.error("password change notification failed", error);
  }
}
