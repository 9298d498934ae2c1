/**
 * Taps before hydration (issue 53, M10): a button the server rendered did nothing until React
 * hydrated, seconds later on a busy phone. Each page's scripts are held back here, so the gap is
 * there on every run; the button must read as not ready (disabled, busy) until it works, and a
 * click as soon as it is visible must open its dialog.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { go, openBrowser, signIn } from "./browser.ts";

const HOLD_MS = 1500;

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`Record a donation works from the moment it is visible (${viewport.width})`, async () => {
    const s = await openBrowser({ viewport });
    try {
      await signIn(s.page, "admin@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      // The page's own scripts arrive late, as on a slow connection: the HTML is there long before.
      await s.page.route(/\/assets\/.*\.js$/, async (route) => {
        await new Promise((r) => setTimeout(r, HOLD_MS));
        await route.continue();
      });
      await s.page.goto("/donations", { waitUntil: "commit" });
      const button = s.page.getByRole("button", { name: "Record a donation" });
      await button.waitFor({ state: "visible" });
      const early = await s.page.evaluate(() => document.documentElement.dataset.hydrated ?? "no");
      assert.equal(
        early,
        "no",
        "the button must be visible before the page hydrates for this test to mean anything",
      );
      assert.equal(await button.isDisabled(), true, "before hydration the button says it is not ready");
      assert.equal(await button.getAttribute("aria-busy"), "true");
      // A person's click, at once: Playwright waits for the button to be enabled, as the eye does.
      await button.click({ timeout: 30_000 });
      await s.page.getByRole("dialog", { name: "Record a donation" }).waitFor({ timeout: 10_000 });
      // Behind the open dialog (aria-hidden), no longer busy.
      const behind = s.page.getByRole("button", { name: "Record a donation", includeHidden: true });
      assert.equal(await behind.getAttribute("aria-busy"), null);
    } finally {
      await s.close();
    }
  });
}

// The mark the other end-to-end tests wait for (html[data-hydrated]) means every button works: a
// route's content hydrates after the root's, seconds later on a slow CPU, and a button focused in
// between is disabled, so its Enter went to the page (the dashboard's Custom, twice in CI).
test("on a slow CPU the hydrated mark waits for the page's buttons, and Enter opens Custom", async () => {
  const s = await openBrowser();
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    const cdp = await s.context.newCDPSession(s.page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
    await go(s.page, "/dashboard");
    assert.equal(await s.page.locator("button[data-hydrating]").count(), 0, "no button still waiting");
    const custom = s.page.getByRole("button", { name: /^Custom/ });
    await custom.focus();
    await s.page.keyboard.press("Enter");
    await s.page.getByRole("grid").first().waitFor({ timeout: 20_000 });
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
