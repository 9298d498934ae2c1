/**
 * Success messages after a redirect (issue 21, src/lib/notice.ts): a reset password, a verified
 * address and an accepted invitation are each said on the next screen in a status region, then
 * leave the URL, so a reload does not say them again. A verified user with no organization gets an
 * explanation, not an error.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { BASE_URL, go, openBrowser, signIn } from "./browser.ts";

async function mailUrl(to: string, subject?: string) {
  const res = await fetch(`${BASE_URL}/api/dev/outbox?to=${encodeURIComponent(to)}`);
  const list = (await res.json()) as { url: string | null; subject: string }[];
  const url = (subject ? list.find((m) => m.subject === subject) : list[0])?.url;
  assert.ok(url, `a mail to ${to}${subject ? ` (${subject})` : ""}`);
  return new URL(url);
}

/** The message shows in a status region and the URL loses `notice`. */
async function said(page: Page, text: string) {
  await page.getByRole("status").filter({ hasText: text }).waitFor();
  await page.waitForURL((u) => !u.searchParams.has("notice"));
}

/** Said, and a reload does not say it again. */
async function saidOnce(page: Page, text: string) {
  await said(page, text);
  await notAfterReload(page, text);
}

async function notAfterReload(page: Page, text: string) {
  await page.reload();
  await page.waitForSelector('html[data-hydrated="true"]');
  await page.waitForTimeout(300);
  assert.equal(await page.getByText(text).count(), 0, `"${text}" is said once`);
}

test("a newcomer verifies the address, is told so where they were going, then resets the password", async () => {
  const s = await openBrowser();
  const email = `notice-${Date.now().toString(36)}@example.org`;
  try {
    await go(s.page, "/sign-up");
    await s.page.getByLabel("Name").fill("Nina Notice");
    await s.page.getByLabel("E-mail").fill(email);
    await s.page.getByLabel("Password").fill("first password 1");
    await s.page.getByRole("button", { name: "Create account" }).click();
    // Decision 044: sign-up goes on to the onboarding page, where the verification link leads back.
    await s.page.waitForURL((u) => u.pathname === "/onboarding");

    const verify = await mailUrl(email, "Verify your e-mail address");
    await go(s.page, verify.pathname + verify.search);
    await s.page.waitForURL((u) => u.pathname === "/onboarding");
    await s.page.getByRole("heading", { name: "Set up your organization" }).waitFor();
    assert.equal(await s.page.getByRole("alert").count(), 0, "no red error");
    await said(s.page, "Your e-mail address is verified.");
    await notAfterReload(s.page, "Your e-mail address is verified.");

    // Signed out, the refusal of someone without an organization explains, calmly, whom to write
    // to (SPEC §8's words first); the button brings the form back.
    await s.page.getByRole("button", { name: "Sign out" }).click();
    await s.page.waitForURL((u) => u.pathname === "/login");
    await go(s.page, "/login?denied=true");
    await s.page.getByRole("heading", { name: "You're not in an organization yet" }).waitFor();
    await s.page
      .getByText("You don't have permission to access the admin portal.", { exact: false })
      .waitFor();
    await s.page.getByText("Write to support@almoner.local to have an organization set up.").waitFor();
    assert.equal(await s.page.getByRole("alert").count(), 0, "no red error");
    await s.shot("no-organization");
    await s.page.getByRole("button", { name: "Sign in with another account" }).click();
    await s.page.getByLabel("E-mail").waitFor();

    await go(s.page, "/forgot-password");
    await s.page.getByLabel("E-mail").fill(email);
    await s.page.getByRole("button", { name: "Send reset link" }).click();
    await s.page.getByText("check your email for the reset link").waitFor();
    const reset = await mailUrl(email);
    await s.page.goto(reset.pathname + reset.search);
    await s.page.waitForURL(/\/reset-password\?token=/);
    await s.page.waitForSelector('html[data-hydrated="true"]');
    await s.page.getByLabel("New password").fill("second password 2");
    await s.page.getByRole("button", { name: "Save password" }).click();
    await s.page.waitForURL((u) => u.pathname === "/login");
    await s.page.getByRole("heading", { name: "Sign in" }).waitFor();
    await saidOnce(s.page, "Your password has been changed.");
  } finally {
    await s.close();
  }
});

test("an invitee who accepts is told so on the dashboard, once", async () => {
  const admin = await openBrowser();
  const invitee = await openBrowser();
  const email = `notice-invitee-${Date.now().toString(36)}@example.org`;
  try {
    await signIn(admin.page, "admin@almoner.test");
    await admin.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(admin.page, "/organizers/create");
    await admin.page.getByRole("tabpanel", { name: "Invite by e-mail" }).getByLabel("E-mail").fill(email);
    await admin.page.getByRole("button", { name: "Send invitation" }).click();
    await admin.page.waitForURL((u) => u.pathname === "/organizers");
    const invitation = await mailUrl(email);

    const signUp = await invitee.page.request.post(`${BASE_URL}/api/auth/sign-up/email`, {
      data: { name: "Ivo Invitee", email, password: "password-123" },
    });
    assert.equal(signUp.status(), 200);
    const verify = await mailUrl(email, "Verify your e-mail address");
    await invitee.page.request.get(`${BASE_URL}${verify.pathname}${verify.search}`, { maxRedirects: 0 });
    await go(invitee.page, invitation.pathname + invitation.search);
    await invitee.page.getByRole("button", { name: "Accept invitation" }).click();
    await invitee.page.waitForURL((u) => u.pathname === "/dashboard");
    await saidOnce(invitee.page, "Invitation accepted.");
    assert.deepEqual(invitee.errors, []);
  } finally {
    await admin.close();
    await invitee.close();
  }
});
