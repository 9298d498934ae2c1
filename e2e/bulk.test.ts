import assert from "node:assert/strict";
import { test } from "node:test";
import { go, openBrowser, signIn } from "./browser.ts";

/** The list's "N rows" line, as a number. */
async function rowsShown(page: import("playwright-core").Page) {
  const text = await page.getByText(/^[\d,]+ rows?$/).innerText();
  return Number(text.replace(/[^\d]/g, ""));
}

test("an admin selects all failed card gifts matching a filter, moves them back to pending in batches with progress, and gifts outside the filter stay", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 } });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    // Every failed gift, then only the card ones: the rest of the failed gifts are outside the filter.
    await go(s.page, '/donations?status=["failed"]&pageSize=10');
    await s.page.getByRole("heading", { name: "Donations", level: 1 }).waitFor();
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    const failed = await rowsShown(s.page);
    await s.page.getByLabel("Payment method").selectOption("card");
    await s.page.waitForURL((u) => u.searchParams.get("paymentMethod") === "card");
    let card = failed;
    for (let i = 0; i < 50 && card === failed; i++) {
      await s.page.waitForTimeout(200);
      card = await rowsShown(s.page);
    }
    assert.ok(card > 10 && card < failed, `failed ${failed}, card ${card}`);

    // The page, then all matching: the bar says so.
    await s.page.getByRole("checkbox", { name: "Select all rows on this page" }).click();
    const bar = s.page.getByRole("region", { name: "Bulk actions" });
    await bar.getByText("10 selected").waitFor();
    await bar.getByRole("button", { name: `Select all ${card.toLocaleString("en-US")} matching` }).click();
    await bar.getByText(`All ${card.toLocaleString("en-US")} matching selected`).waitFor();
    await s.shot("bulk-all-matching-1280");

    // Each call is slowed so the progress can be seen between them.
    await s.page.route("**/api/trpc/donations.bulkUpdateStatus**", async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await bar.getByLabel("New status").selectOption("pending");
    await bar.getByRole("button", { name: "Apply" }).click();
    await bar.getByText(new RegExp(`^Updating \\d+ of ${card.toLocaleString("en-US")}…$`)).waitFor();
    await s.page.getByRole("progressbar").waitFor();
    // The run holds the selection: Clear and the checkboxes wait for its end, so its Cancel stays.
    assert.equal(await bar.getByRole("button", { name: "Clear" }).isDisabled(), true);
    assert.equal(
      await s.page.getByRole("checkbox", { name: "Select all rows on this page" }).first().isDisabled(),
      true,
    );
    await s.shot("bulk-progress-1280");
    await s.page.getByText(`${card.toLocaleString("en-US")} marked pending`).waitFor({ timeout: 30_000 });
    await s.page.unroute("**/api/trpc/donations.bulkUpdateStatus**");

    // The filter now matches nothing; the failed gifts of other methods are still failed.
    await s.page.getByText("0 rows").waitFor();
    await go(s.page, '/donations?status=["failed"]&pageSize=10');
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    assert.equal(await rowsShown(s.page), failed - card);
    await go(s.page, '/donations?status=["failed"]&paymentMethod=cash&pageSize=10');
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    assert.ok((await rowsShown(s.page)) > 0);
    assert.deepEqual(
      s.errors.filter((e) => !e.includes("favicon")),
      [],
    );
  } finally {
    await s.close();
  }
});
