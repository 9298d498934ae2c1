import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, go, openBrowser, signIn } from "./browser.ts";

test("an admin bans a user, impersonates the organizer, sees the banner and stops", async () => {
  const s = await openBrowser();
  try {
    // A throwaway account to ban.
    const email = `to-ban-${Date.now().toString(36)}@example.org`;
    await fetch(`${BASE_URL}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Soon Banned", email, password: "password-123" }),
    });
    s.page.on("dialog", (d) => void d.accept("e2e check"));
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, `/users?q=${encodeURIComponent(email)}`);
    await s.page.getByRole("button", { name: "Actions for Soon Banned" }).click();
    await s.page.getByRole("menuitem", { name: "Ban…" }).click();
    await s.page.getByText("Banned", { exact: true }).waitFor();
    const refused = await fetch(`${BASE_URL}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "password-123" }),
    });
    assert.equal(refused.status, 403);
    await go(s.page, "/users?q=organizer%40almoner.test");
    await s.page.getByRole("button", { name: "Actions for Oscar Organizer" }).click();
    await s.page.getByRole("menuitem", { name: "Impersonate" }).click();
    await s.page.getByText("You are impersonating Oscar Organizer").waitFor();
    await s.shot("impersonating");
    assert.equal(await s.page.getByRole("link", { name: "Organizers" }).count(), 0);
    await s.page.getByRole("button", { name: "Stop impersonating" }).click();
    await s.page.getByRole("link", { name: "Organizers" }).first().waitFor();
    assert.equal(await s.page.getByText("You are impersonating").count(), 0);
  } finally {
    await s.close();
  }
});
