/**
 * What a new password must be (docs/decisions/018-sessions-and-requests.md): within the configured
 * length, and not one of the commonest passwords (OWASP ASVS 6.2.4 asks for at least the top
 * 3 000). Every place a password is chosen calls `checkNewPassword`: sign-up, change-password,
 * reset-password, set-password, and the admin's create-user and set-user-password.
 *
 * The list is @zxcvbn-ts/language-common's `passwords` dictionary (MIT, pinned in package.json):
 * 49 233 passwords, lower-case, in order of frequency in leaked password sets. It is imported
 * dynamically, so its ≈ 380 KB module is loaded only when a password is being chosen, never on
 * the path of an ordinary request.
 */
import type { AppConfig } from "../../app.config";
import { E } from "./errors";

let common: Promise<Set<string>> | null = null;

function commonPasswords() {
  common ??= import("@zxcvbn-ts/language-common/dist/passwords.json.mjs").then(
    (m) => new Set(m.default),
    (error: unknown) => {
      common = null; // a failed load is tried again by the next request
      throw error;
    },
  );
  return common;
}

/** How many passwords the list holds (ASVS 6.2.4 asks for at least 3 000; this one is ≈ 49 000). */
export async function commonPasswordCount(): Promise<number> {
  return (await commonPasswords()).size;
}

/** Whether `password` is on the list, compared as typed in any case ("Password1" is "password1"). */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.normalize("NFKC").toLowerCase());
}

/** Length first (better-auth's codes), then the list: 400 PASSWORD_COMPROMISED with its wording. */
export async function checkNewPassword(ctx: { config: AppConfig }, password: string) {
  if (password.length < ctx.config.password.minLength) throw E.PASSWORD_TOO_SHORT();
  if (password.length > ctx.config.password.maxLength) throw E.PASSWORD_TOO_LONG();
  if (await isCommonPassword(password)) throw E.PASSWORD_COMPROMISED();
}
