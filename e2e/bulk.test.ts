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

test("an admin tags every donor matching a filter with a new tag in batches with progress, and donors outside the filter stay untagged", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 } });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    // A tag nobody has yet, so its count afterwards is exactly what the run did.
    const tagName = `Bulk ${Date.now().toString(36)}`;
    const tagId = await s.page.evaluate(async (name) => {
      const res = await fetch("/api/trpc/donors.tags.create", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ json: { name } }),
      });
      return ((await res.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
    }, tagName);

    await go(s.page, "/donors?pageSize=10");
    await s.page.getByRole("heading", { name: "Donors", level: 1 }).waitFor();
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    const all = await rowsShown(s.page);
    // The Volunteer tag filters the list: the other donors are outside it.
    const tagSelect = s.page.getByLabel("Tag", { exact: true });
    const volunteer = await tagSelect.locator("option", { hasText: /^Volunteer \(/ }).getAttribute("value");
    assert.ok(volunteer);
    await tagSelect.selectOption(volunteer);
    await s.page.waitForURL((u) => u.searchParams.get("tagId") === volunteer);
    let matching = all;
    for (let i = 0; i < 50 && matching === all; i++) {
      await s.page.waitForTimeout(200);
      matching = await rowsShown(s.page);
    }
    assert.ok(matching > 100 && matching < all, `all ${all}, volunteers ${matching}`);
    const n = matching.toLocaleString("en-US");

    await s.page.getByRole("checkbox", { name: "Select all rows on this page" }).click();
    const bar = s.page.getByRole("region", { name: "Bulk actions" });
    await bar.getByText("10 selected").waitFor();
    await bar.getByRole("button", { name: `Select all ${n} matching` }).click();
    await bar.getByText(`All ${n} matching selected`).waitFor();

    // Each call is slowed so the progress can be seen between them.
    await s.page.route("**/api/trpc/donors.tags.bulkAssign**", async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await bar.getByLabel("Tag to apply").selectOption({ label: tagName });
    await bar.getByRole("button", { name: "Add tag" }).click();
    await bar.getByText(new RegExp(`^Tagging \\d+ of ${n}…$`)).waitFor();
    await s.page.getByRole("progressbar").waitFor();
    // While it runs, the tag cannot be changed nor a second run started.
    assert.equal(await bar.getByLabel("Tag to apply").isDisabled(), true);
    assert.equal(await bar.getByRole("button", { name: "Add tag" }).isDisabled(), true);
    await s.shot("donors-bulk-progress-1280");
    await s.page.getByText(`${n} tagged ${tagName}`).waitFor({ timeout: 30_000 });
    await s.page.unroute("**/api/trpc/donors.tags.bulkAssign**");

    // As many donors carry the tag as the snapshot held, and every one of them is a volunteer.
    await go(s.page, `/donors?pageSize=10&tagId=${tagId}`);
    await s.page.getByRole("checkbox", { name: "Select row" }).first().waitFor();
    assert.equal(await rowsShown(s.page), matching);
    const outside = await s.page.evaluate(
      async ({ tagId, volunteer }) => {
        const wrong: string[] = [];
        for (let page = 1; ; page++) {
          const input = encodeURIComponent(JSON.stringify({ json: { tagId, page, pageSize: 100 } }));
          const res = await fetch(`/api/trpc/donors.list?input=${input}`);
          const data = (
            (await res.json()) as {
              result: { data: { json: { rows: { id: string; tags: { id: string }[] }[] } } };
            }
          ).result.data.json;
          for (const r of data.rows) if (!r.tags.some((t) => t.id === volunteer)) wrong.push(r.id);
          if (data.rows.length < 100) return wrong;
        }
      },
      { tagId, volunteer },
    );
    assert.deepEqual(outside, []);
    assert.deepEqual(
      s.errors.filter((e) => !e.includes("favicon")),
      [],
    );
  } finally {
    await s.close();
  }
});
