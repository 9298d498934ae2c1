/**
 * Issue 26, "Sessions and requests" — reset and passwords (docs/decisions/018-sessions-and-requests.md):
 * a new reset link retires the older ones, every password change is announced by mail, and the
 * commonest passwords are refused wherever a password is chosen (OWASP ASVS 6.2.4).
 */
import { describe, expect, it } from "vitest";
import { setPassword } from "../../worker/auth";
import { AuthContext } from "../../worker/auth/core";
import { AuthApiError } from "../../worker/auth/errors";
import { commonPasswordCount, isCommonPassword } from "../../worker/auth/password-policy";
import { CookieJar, lastMail, makeAdmin, PASSWORD, signUp, uniqueEmail } from "../auth/jar";
import { appFetch, BASE_URL, testEnv } from "../helpers";

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  url: string | null;
}

async function mailsTo(email: string) {
  const res = await appFetch(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
  return (await res.json()) as OutboxMail[];
}

/** The token of a mailed reset link (/api/auth/reset-password/<token>?callbackURL=…). */
function tokenOf(mail: OutboxMail | undefined) {
  const path = new URL(mail?.url ?? "").pathname;
  return decodeURIComponent(path.split("/").pop() ?? "");
}

async function askForReset(email: string) {
  const res = await new CookieJar().post("/api/auth/request-password-reset", {
    email,
    redirectTo: "/reset-password",
  });
  expect(res.status).toBe(200);
  const mail = await lastMail(email);
  expect(mail?.subject).toBe("Reset your password");
  return tokenOf(mail);
}

const reset = (token: string, newPassword: string) =>
  new CookieJar().post("/api/auth/reset-password", { token, newPassword });

const signInStatus = async (email: string, password: string) =>
  (await new CookieJar().post("/api/auth/sign-in/email", { email, password })).status;

const COMPROMISED = {
  code: "PASSWORD_COMPROMISED",
  message: "The password you entered has been compromised. Please choose a different password.",
};

function expectPasswordChangedMail(mail: OutboxMail | undefined) {
  expect(mail?.subject).toBe("Your password was changed");
  expect(mail?.text).toMatch(/If you did not change it/);
  expect(mail?.url).toBe(`${BASE_URL}/forgot-password`);
}

describe("reset tokens: a new link retires the older ones", () => {
  it("a user who asked twice for a reset link: the first link no longer resets the password, the newest does", async () => {
    const { email } = await signUp();
    const first = await askForReset(email);
    const second = await askForReset(email);
    expect(first).not.toBe(second);
    // The older link's landing page already says it is invalid.
    const hop = await new CookieJar().get(`/api/auth/reset-password/${first}?callbackURL=/reset-password`);
    expect(new URL(hop.headers.get("location") ?? "").searchParams.get("error")).toBe("INVALID_TOKEN");
    const old = await reset(first, "a fresh long passphrase");
    expect(old.status).toBe(400);
    expect(await old.json()).toEqual({ code: "INVALID_TOKEN", message: "Invalid token" });
    expect((await reset(second, "a fresh long passphrase")).status).toBe(200);
    expect(await signInStatus(email, "a fresh long passphrase")).toBe(200);
  });

  it("another user's pending reset link is not touched by a new request for someone else", async () => {
    const a = await signUp();
    const b = await signUp();
    const tokenA = await askForReset(a.email);
    await askForReset(b.email);
    expect((await reset(tokenA, "a fresh long passphrase")).status).toBe(200);
  });

  it("a password reset or change retires every reset link still pending", async () => {
    const { email, jar } = await signUp();
    const pending = await askForReset(email);
    const change = await jar.post("/api/auth/change-password", {
      currentPassword: PASSWORD,
      newPassword: "changed in the profile",
    });
    expect(change.status).toBe(200);
    expect((await reset(pending, "a fresh long passphrase")).status).toBe(400);
  });
});

describe("a mail announces every password change", () => {
  it("after a reset by link, the account's owner gets 'Your password was changed'", async () => {
    const { email } = await signUp();
    const token = await askForReset(email);
    expect((await reset(token, "a fresh long passphrase")).status).toBe(200);
    expectPasswordChangedMail(await lastMail(email));
  });

  it("after a change of password in the profile, the owner gets the same mail", async () => {
    const { email, jar } = await signUp();
    const res = await jar.post("/api/auth/change-password", {
      currentPassword: PASSWORD,
      newPassword: "changed in the profile",
    });
    expect(res.status).toBe(200);
    expectPasswordChangedMail(await lastMail(email));
  });

  it("after a platform admin sets a user's password, the user gets the same mail", async () => {
    const admin = await makeAdmin();
    const { email, user } = await signUp();
    const res = await admin.jar.post("/api/auth/admin/set-user-password", {
      userId: user.id,
      newPassword: "set by an administrator",
    });
    expect(res.status).toBe(200);
    expectPasswordChangedMail(await lastMail(email));
  });

  it("a refused change sends nothing", async () => {
    const { email, jar } = await signUp();
    const before = (await mailsTo(email)).length;
    const res = await jar.post("/api/auth/change-password", {
      currentPassword: "not the current one",
      newPassword: "changed in the profile",
    });
    expect(res.status).toBe(400);
    expect((await mailsTo(email)).length).toBe(before);
  });
});

describe("the commonest passwords are refused wherever a password is chosen", () => {
  it("keeps a list of at least the 10 000 commonest passwords, compared without case; the demo and test passwords are not on it", async () => {
    expect(await commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
    for (const common of [
      "password",
      "Password",
      "PASSWORD1",
      "12345678",
      "qwertyuiop",
      "iloveyou",
      "trustno1",
    ])
      expect(await isCommonPassword(common), common).toBe(true);
    for (const fine of [PASSWORD, "almoner-demo-2026", "a fresh long passphrase", "changed in the profile"])
      expect(await isCommonPassword(fine), fine).toBe(false);
  });

  it("sign-up with 'password' → 400 PASSWORD_COMPROMISED, and no account", async () => {
    const email = uniqueEmail("weak");
    const res = await new CookieJar().post("/api/auth/sign-up/email", {
      name: "Weak",
      email,
      password: "password",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(COMPROMISED);
    expect(await testEnv.DB.prepare("SELECT id FROM user WHERE email = ?").bind(email).first()).toBeNull();
  });

  it("change-password to 'Password1' → 400 PASSWORD_COMPROMISED, the old password still works", async () => {
    const { email, jar } = await signUp();
    const res = await jar.post("/api/auth/change-password", {
      currentPassword: PASSWORD,
      newPassword: "Password1",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(COMPROMISED);
    expect(await signInStatus(email, PASSWORD)).toBe(200);
  });

  it("reset-password to 'qwertyuiop' → 400 PASSWORD_COMPROMISED, and the link still works for a good one", async () => {
    const { email } = await signUp();
    const token = await askForReset(email);
    const weak = await reset(token, "qwertyuiop");
    expect(weak.status).toBe(400);
    expect(await weak.json()).toEqual(COMPROMISED);
    expect((await reset(token, "a fresh long passphrase")).status).toBe(200);
  });

  it("a platform admin: create-user and set-user-password with 'iloveyou1' → 400 PASSWORD_COMPROMISED", async () => {
    const admin = await makeAdmin();
    const email = uniqueEmail("created");
    const created = await admin.jar.post("/api/auth/admin/create-user", {
      email,
      name: "Created",
      password: "iloveyou1",
    });
    expect(created.status).toBe(400);
    expect(await created.json()).toEqual(COMPROMISED);
    const { user } = await signUp();
    const set = await admin.jar.post("/api/auth/admin/set-user-password", {
      userId: user.id,
      newPassword: "iloveyou1",
    });
    expect(set.status).toBe(400);
    expect(await set.json()).toEqual(COMPROMISED);
  });

  it("set-password (server-side, first password of a social-only user) refuses 'password123' the same way", async () => {
    const { user } = await signUp();
    const ctx = new AuthContext(new Request(`${BASE_URL}/api/auth/set-password`), testEnv);
    const error = await setPassword(ctx, user.id, "password123").then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthApiError);
    expect({ code: (error as AuthApiError).code, message: (error as AuthApiError).message }).toEqual(
      COMPROMISED,
    );
    expect((error as AuthApiError).status).toBe(400);
  });
});
