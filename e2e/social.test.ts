import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, go, openBrowser } from "./browser.ts";

// scripts/e2e.mjs runs a real OpenID provider (scripts/oidc-dev.mjs) and points GitLab (arctic's
// class) and Hugging Face (generic OIDC) at it.
const ISSUER = process.env.E2E_OIDC_ISSUER ?? "";
const ORGANIZER = "organizer@almoner.test";

test("continue with GitLab on the provider's login page, land on /dashboard, link Hugging Face on /profile", async () => {
  assert.ok(ISSUER, "E2E_OIDC_ISSUER is set by scripts/e2e.mjs");
  const s = await openBrowser();
  try {
    await go(s.page, "/login");
    const gitlab = s.page.getByRole("button", { name: "Continue with GitLab" });
    await gitlab.waitFor();
    // Only the enabled providers are offered.
    assert.equal(await s.page.getByRole("button", { name: /^Continue with/ }).count(), 2);
    await s.shot("social-login");
    await gitlab.click();

    // The provider's own page, on its own origin.
    await s.page.waitForURL((u) => u.href.startsWith(ISSUER));
    await s.page.getByLabel("Login (e-mail)").fill(ORGANIZER);
    await s.page.getByLabel("Password").fill("whatever the provider wants");
    await s.shot("social-provider-login");
    await s.page.getByRole("button", { name: "Sign in" }).click();

    // Same verified e-mail as the seeded organizer: linked and signed in.
    await s.page.waitForURL((u) => u.href.startsWith(BASE_URL) && u.pathname === "/dashboard");
    await s.page.waitForSelector('html[data-hydrated="true"]');
    await s.page.getByRole("heading", { name: "Dashboard" }).first().waitFor();

    await go(s.page, "/profile");
    const list = s.page.getByRole("list", { name: "Linked accounts" });
    await list.getByText("GitLab").waitFor();
    await list.getByText("Password").waitFor();
    await s.page.getByRole("button", { name: "Link Hugging Face" }).click();
    // The provider may remember the login from a minute ago; if it asks again, answer.
    await s.page.waitForURL((u) => u.href.startsWith(ISSUER) || u.pathname === "/profile");
    if (s.page.url().startsWith(ISSUER)) {
      await s.page.getByLabel("Login (e-mail)").fill(ORGANIZER);
      await s.page.getByRole("button", { name: "Sign in" }).click();
    }
    await s.page.waitForURL((u) => u.href.startsWith(BASE_URL) && u.pathname === "/profile");
    await s.page.waitForSelector('html[data-hydrated="true"]');
    await list.getByText("Hugging Face").waitFor();
    assert.equal(await s.page.getByRole("button", { name: /^Link / }).count(), 0);
    await s.shot("social-profile-linked");

    // Unlink one again: two methods stay.
    await s.page.getByRole("button", { name: "Unlink Hugging Face" }).click();
    await s.page.getByRole("button", { name: "Link Hugging Face" }).waitFor();
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("a cancelled provider sign-in comes back to /login with a message; phone layout", async () => {
  const s = await openBrowser({ viewport: { width: 360, height: 780 } });
  try {
    await go(s.page, "/login");
    await s.page.getByRole("button", { name: "Continue with Hugging Face" }).click();
    await s.page.waitForURL((u) => u.href.startsWith(ISSUER));
    await s.page.getByRole("button", { name: "Cancel" }).click();
    await s.page.waitForURL((u) => u.href.startsWith(BASE_URL) && u.pathname === "/login");
    await s.page.getByText("Sign-in was cancelled at the provider.").waitFor();
    const overflow = await s.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false);
    await s.shot("social-login-cancelled-phone");
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
