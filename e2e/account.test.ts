import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, go, openBrowser } from "./browser.ts";

async function lastMailUrl(to: string) {
  const res = await fetch(`${BASE_URL}/api/dev/outbox?to=${encodeURIComponent(to)}`);
  const list = (await res.json()) as { url: string | null }[];
  return list[0]?.url ?? "";
}

test("a newcomer signs up, verifies the e-mail from the outbox, resets a forgotten password and signs in again", async () => {
  const s = await openBrowser();
  const email = `newcomer-${Date.now().toString(36)}@example.org`;
  try {
    await go(s.page, "/sign-up");
    await s.page.getByLabel("Name").fill("New Comer");
    await s.page.getByLabel("E-mail").fill(email);
    await s.page.getByLabel("Password").fill("first password 1");
    await s.page.getByRole("button", { name: "Create account" }).click();
    // Signed in at once (verification is not required to sign in): on to /onboarding (decision 045).
    await s.page.waitForURL((u) => u.pathname === "/onboarding");
    const verify = new URL(await lastMailUrl(email));
    await s.page.goto(verify.pathname + verify.search);
    // Verified and signed in, with no organization yet: /onboarding (decision 044), or /login.
    await s.page.waitForURL((u) => ["/", "/login", "/onboarding"].includes(u.pathname));
    await go(s.page, "/forgot-password");
    await s.page.getByLabel("E-mail").fill(email);
    await s.page.getByRole("button", { name: "Send reset link" }).click();
    await s.page.getByText("check your email for the reset link").waitFor();
    const reset = new URL(await lastMailUrl(email));
    await s.page.goto(reset.pathname + reset.search);
    await s.page.waitForURL(/\/reset-password\?token=/);
    await s.page.waitForSelector('html[data-hydrated="true"]');
    await s.page.getByLabel("New password").fill("second password 2");
    await s.page.getByRole("button", { name: "Save password" }).click();
    await s.page.waitForURL(/\/login/);
    const res = await fetch(`${BASE_URL}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "second password 2" }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { user: { emailVerified: boolean } };
    assert.equal(body.user.emailVerified, true);
    await s.shot("sign-up-flow");
    assert.deepEqual(
      s.errors.filter((e) => !e.includes("status of 4")),
      [],
    );
  } finally {
    await s.close();
  }
});
