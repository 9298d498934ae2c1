import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { axeProblems } from "./a11y.ts";
import { BASE_URL, go, openBrowser, signIn } from "./browser.ts";

async function signUp(name: string, email: string) {
  const res = await fetch(`${BASE_URL}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE_URL },
    body: JSON.stringify({ name, email, password: "password-123" }),
  });
  assert.equal(res.status, 200);
}

/** The user may sign in (200) or is banned (403). */
async function signInStatus(email: string) {
  const res = await fetch(`${BASE_URL}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE_URL },
    body: JSON.stringify({ email, password: "password-123" }),
  });
  return res.status;
}

/** The user as the admin API lists them, read with the page's (admin) cookies. */
async function listedUser(page: Page, email: string) {
  return page.evaluate(async (e) => {
    const res = await fetch(
      `/api/auth/admin/list-users?searchField=email&searchValue=${encodeURIComponent(e)}`,
    );
    const body = (await res.json()) as {
      users: {
        email: string;
        role: string;
        banned: boolean;
        banReason: string | null;
        banExpires: string | null;
      }[];
    };
    return body.users.find((u) => u.email === e);
  }, email);
}

async function openRowAction(page: Page, name: string, item: string) {
  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: item }).click();
  return page.getByRole("alertdialog");
}

test("Cancel and Escape on the ban dialog ban nobody; confirming bans with the reason and length given", async () => {
  const s = await openBrowser();
  try {
    const email = `to-ban-${Date.now().toString(36)}@example.org`;
    await signUp("Soon Banned", email);
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, `/users?q=${encodeURIComponent(email)}`);
    const actions = s.page.getByRole("button", { name: "Actions for Soon Banned" });

    // Cancel, after typing a reason: nothing happens, focus is back on the row's menu button.
    let dialog = await openRowAction(s.page, "Soon Banned", "Ban…");
    await dialog.getByRole("heading", { name: "Ban Soon Banned?" }).waitFor();
    const reason = dialog.getByLabel("Reason");
    assert.ok(await reason.evaluate((el) => el === document.activeElement), "the first field has focus");
    assert.deepEqual(await axeProblems(s.page), []);
    await reason.fill("should not stick");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    assert.ok(await actions.evaluate((el) => el === document.activeElement), "focus returns to the trigger");
    assert.equal((await listedUser(s.page, email))?.banned, false);
    assert.equal(await signInStatus(email), 200);

    // Escape: the same.
    dialog = await openRowAction(s.page, "Soon Banned", "Ban…");
    await dialog.getByLabel("Reason").fill("nor this");
    await s.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    assert.equal((await listedUser(s.page, email))?.banned, false);

    // A custom length outside 1…18250 days cannot be sent.
    dialog = await openRowAction(s.page, "Soon Banned", "Ban…");
    assert.equal(await dialog.getByLabel("Reason").inputValue(), "", "each opening starts empty");
    await dialog.getByLabel("Ban length").selectOption("custom");
    await dialog.getByLabel("Days").fill("0");
    assert.ok(await dialog.getByRole("button", { name: "Ban user" }).isDisabled());
    await dialog.getByLabel("Days").fill("18251");
    assert.ok(await dialog.getByRole("button", { name: "Ban user" }).isDisabled());

    // Confirm: banned for 7 days, with the reason.
    await dialog.getByLabel("Ban length").selectOption("7");
    await dialog.getByLabel("Reason").fill("e2e check");
    const before = Date.now();
    await dialog.getByRole("button", { name: "Ban user" }).click();
    await dialog.waitFor({ state: "detached" });
    await s.page.getByText("Banned", { exact: true }).waitFor();
    const banned = await listedUser(s.page, email);
    assert.equal(banned?.banned, true);
    assert.equal(banned?.banReason, "e2e check");
    const expires = Date.parse(banned?.banExpires ?? "");
    assert.ok(Math.abs(expires - (before + 7 * 86_400_000)) < 120_000, `expires ${banned?.banExpires}`);
    assert.equal(await signInStatus(email), 403);
  } finally {
    await s.close();
  }
});

test("a role change asks first: Cancel keeps the role, confirming changes it", async () => {
  const s = await openBrowser();
  try {
    const email = `role-${Date.now().toString(36)}@example.org`;
    await signUp("Role Change", email);
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, `/users?q=${encodeURIComponent(email)}`);
    let dialog = await openRowAction(s.page, "Role Change", "Make platform admin…");
    await dialog.getByRole("heading", { name: "Make Role Change a platform admin?" }).waitFor();
    const cancel = dialog.getByRole("button", { name: "Cancel" });
    assert.ok(await cancel.evaluate((el) => el === document.activeElement), "Cancel has focus");
    await cancel.click();
    await dialog.waitFor({ state: "detached" });
    assert.equal((await listedUser(s.page, email))?.role, "user");

    dialog = await openRowAction(s.page, "Role Change", "Make platform organizer…");
    await dialog.getByRole("button", { name: "Make platform organizer" }).click();
    await dialog.waitFor({ state: "detached" });
    assert.equal((await listedUser(s.page, email))?.role, "organizer");
  } finally {
    await s.close();
  }
});

test("Cancel on the impersonate dialog leaves the admin as themselves; confirming impersonates and audits the reason", async () => {
  const s = await openBrowser();
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/users?q=organizer%40almoner.test");

    let dialog = await openRowAction(s.page, "Oscar Organizer", "Impersonate…");
    await dialog.getByRole("heading", { name: "Impersonate Oscar Organizer?" }).waitFor();
    await dialog.getByLabel("Reason").fill("should not happen");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    const session = await s.page.evaluate(async () => {
      const res = await fetch("/api/auth/get-session");
      return (await res.json()) as { user: { email: string }; session: { impersonatedBy?: string | null } };
    });
    assert.equal(session.user.email, "admin@almoner.test");
    assert.ok(!session.session.impersonatedBy);
    assert.equal(await s.page.getByText("You are impersonating").count(), 0);

    dialog = await openRowAction(s.page, "Oscar Organizer", "Impersonate…");
    await dialog.getByLabel("Reason").fill("e2e: checking a support ticket");
    await dialog.getByRole("button", { name: "Impersonate" }).click();
    await s.page.getByText("You are impersonating Oscar Organizer").waitFor();
    // Straight to the dashboard, not bounced off /users as a non-admin (issue 53, L1).
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await s.page.getByRole("heading", { name: "Dashboard" }).waitFor();
    await s.page.waitForTimeout(500);
    assert.equal(await s.page.getByText("That page is for platform admins.").count(), 0);
    await s.shot("impersonating");
    assert.equal(await s.page.getByRole("link", { name: "Organizers" }).count(), 0);
    await s.page.getByRole("button", { name: "Stop impersonating" }).click();
    await s.page.getByRole("link", { name: "Organizers" }).first().waitFor();
    assert.equal(await s.page.getByText("You are impersonating").count(), 0);

    // The reason is in the user's history (the audit log).
    await go(s.page, "/users?q=organizer%40almoner.test");
    await s.page.getByRole("link", { name: "Oscar Organizer" }).click();
    await s.page.getByText("e2e: checking a support ticket").first().waitFor();
  } finally {
    await s.close();
  }
});
