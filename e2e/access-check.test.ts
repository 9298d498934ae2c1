/**
 * Spec-audit deviation 1 (decision 044): a failed access check is not "no access". The browser's
 * access.capabilities request is made to fail for real (a 500 or a 429 answer, a dropped
 * connection) while the rest of the stack runs as it is:
 * - platform admin and organizer: sign-in goes on to the dashboard, signed in (SPEC §6 lets them in
 *   by role), even while every check fails;
 * - role user (a viewer): "We couldn't check your access. Try again.", still signed in, and the
 *   retry goes on to the dashboard once the check answers.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page, Route } from "playwright-core";
import { openBrowser, signIn } from "./browser.ts";

const CHECK = "**/api/trpc/access.capabilities*";

/** Fails the next `times` access checks (all while `times` is Infinity) with `how`. */
async function failChecks(
  page: Page,
  how: (route: Route) => Promise<void>,
  times = Number.POSITIVE_INFINITY,
) {
  let left = times;
  await page.route(CHECK, async (route) => {
    if (left-- > 0) return how(route);
    return route.continue();
  });
}

const answer = (status: number) => (route: Route) =>
  route.fulfill({
    status,
    contentType: "application/json",
    body: JSON.stringify({
      error: { json: { message: status === 429 ? "Too many requests" : "Something went wrong!" } },
    }),
  });

async function signedInAs(page: Page) {
  const res = await page.request.get("/api/auth/get-session?disableCookieCache=true");
  return ((await res.json()) as { user?: { email: string } } | null)?.user?.email ?? null;
}

for (const [who, email, how] of [
  ["a platform admin", "admin@almoner.test", answer(500)],
  ["an organizer", "organizer@almoner.test", (route: Route) => route.abort("connectionreset")],
] as const) {
  test(`${who} signs in while every access check fails: the dashboard, still signed in`, async () => {
    const s = await openBrowser();
    try {
      await failChecks(s.page, how);
      await signIn(s.page, email);
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      await s.page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
      assert.equal(await signedInAs(s.page), email);
      assert.equal(await s.page.getByText("You don't have permission", { exact: false }).count(), 0);
    } finally {
      await s.close();
    }
  });
}

test("a role user whose access check fails is told to try again, stays signed in, and the retry lets them in", async () => {
  const s = await openBrowser({ viewport: { width: 390, height: 844 } });
  try {
    await failChecks(s.page, answer(429), 1);
    await signIn(s.page, "member@almoner.test");
    const alert = s.page.getByRole("alert").filter({ hasText: "We couldn't check your access. Try again." });
    await alert.waitFor();
    assert.equal(new URL(s.page.url()).pathname, "/login");
    assert.equal(await signedInAs(s.page), "member@almoner.test", "not signed out");
    assert.equal(await s.page.getByText("You don't have permission", { exact: false }).count(), 0);
    await s.shot("access-check-failed-phone");
    await alert.getByRole("button", { name: "Try again" }).click();
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await s.page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
  } finally {
    await s.close();
  }
});
