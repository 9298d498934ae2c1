/**
 * Writing a password (docs/decisions/018-sessions-and-requests.md). Every path that changes a
 * password goes through `storePassword`: reset by link, change in the profile, set-password and
 * the admin's set-user-password. In one batch (one D1 transaction) the credential account gets the
 * new hash and every reset link still pending for the user dies (a link mailed before the change
 * must not undo it); then the owner is told by mail. The caller has checked the new password
 * (password-policy.ts `checkNewPassword`) before, so a refusal never half-writes.
 */
import { getMailer, renderMail } from "../mail";
import type { AuthContext } from "./core";
import { generateId, hashPassword } from "./crypto";
import { dropUserTokensStatement } from "./tokens";

export interface PasswordOwner {
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
 * "Your password was changed", with what to do if it was not the owner (OWASP ASVS 6.2.x / the
 * Forgot Password cheat sheet: notify on every credential change). The change is already stored:
 * a mail transport failure is logged, not turned into an error for a change that happened.
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
