/**
 * What a new password must be (decision 018): within the configured length and not one of the
 * commonest (OWASP ASVS 6.2.4: at least the top 3 000), checked wherever a password is chosen. The
 * list, @zxcvbn-ts/language-common's `passwords`, is imported dynamically: ≈ 380 KB, loaded only then.
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

/** How many passwords the list holds (≈ 49 000). */
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
