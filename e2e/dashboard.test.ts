import assert from "node:assert/strict";
import { test } from "node:test";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, signIn } from "./browser.ts";

/**
 * Issue 27, decision 032: the dashboard's figures come from rollups, and those that are estimates
 * say so — "≈" before them, the bounds in one line — with the exact figures one keyboard press
 * away and back, as the owner at 1280 px in light and as a viewer at 360 px in dark.
 */
test("dashboard: estimates are marked ≈ with their bounds, and the exact figures are one click away", async () => {
  for (const [email, viewport, colorScheme] of [
    ["admin@almoner.test", { width: 1280, height: 900 }, "light"],
    ["member@almoner.test", { width: 360, height: 780 }, "dark"],
  ] as const) {
    const s = await openBrowser({ viewport, colorScheme });
    const tag = `${viewport.width}-${colorScheme}`;
    try {
      await signIn(s.page, email);
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      await go(s.page, "/dashboard");
      // The median is always an estimate from the histogram; Harbor's 30 days hold more than the
      // sketch's 1 024 donors, so the donor counts are estimates too.
      const median = s.page.getByText(/^≈ Median /);
      await median.waitFor();
      const note = s.page.getByText(
        /≈ marks an estimate: the median within 2\.5%, donor counts within 6\.3%/,
      );
      await note.waitFor();
      await s.page
        .getByText(/^≈ [\d,]+$/)
        .first()
        .waitFor();
      assert.deepEqual(await axeProblems(s.page), [], `axe on /dashboard (${tag}, ${email})`);
      await s.shot(`dashboard-estimates-${tag}`);
      // Exact figures by keyboard: the button takes focus and Enter asks for them.
      const toExact = s.page.getByRole("button", { name: "Show exact figures" });
      await toExact.focus();
      await s.page.keyboard.press("Enter");
      await s.page.getByText("Exact figures, counted from every donation.").waitFor();
      await s.page.getByText(/^Median /).waitFor();
      assert.equal(await s.page.getByText(/^≈ /).count(), 0, "no estimate is left once exact");
      await s.shot(`dashboard-exact-${tag}`);
      await s.page.getByRole("button", { name: "Show fast figures" }).click();
      await median.waitFor();
      assert.deepEqual(s.errors, [], `console errors (${tag})`);
    } finally {
      await s.close();
    }
  }
});
