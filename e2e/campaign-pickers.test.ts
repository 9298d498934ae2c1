/**
 * Campaign pickers find every campaign (issue 27's read-through): each had offered the first 100
 * campaigns, so an organization with more could not choose the rest. Here the Kōyō owner's
 * organization gets 110 more campaigns, titled to sort after the first page, and each picker finds
 * the last of them by typing, with the keyboard: the reports' campaign filter (and a reload, which
 * names the chosen one by id), the campaigns compared side by side, the donations and recurring
 * plans' filters (at 360 px, inside the filter sheet), the record-a-gift dialog, whose amount then
 * reads in the chosen campaign's currency, and a campaign's own thank-you message, where a
 * campaign that has one is listed but cannot be chosen. axe finds nothing with a picker open.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, type Session, signIn } from "./browser.ts";

const MANY = 110;
const title = (n: number) => `Zephyr ${String(n).padStart(3, "0")}`;

/** Creates the campaigns through the API, the last one and a euro one published; answers their ids. */
async function manyCampaigns(page: Page) {
  return page.evaluate(
    async ({ titles }) => {
      const call = async (path: string, input: unknown) => {
        const res = await fetch(`/api/trpc/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ json: input }),
        });
        if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { result: { data: { json: { id: string } } } }).result.data.json;
      };
      const ids: Record<string, string> = {};
      for (const t of titles) ids[t] = (await call("campaigns.create", { title: t, currency: "JPY" })).id;
      ids.euro = (await call("campaigns.create", { title: "Zephyr euro", currency: "EUR" })).id;
      for (const t of [titles[titles.length - 1] as string, "euro"])
        await call("campaigns.setStatus", { id: ids[t], action: "publish" });
      return ids;
    },
    { titles: Array.from({ length: MANY }, (_, i) => title(i + 1)) },
  );
}

/** Opens a picker from the keyboard, types, and answers the list's options. */
async function search(s: Session, trigger: ReturnType<Page["getByRole"]>, typed: string) {
  await trigger.focus();
  await s.page.keyboard.press("Enter");
  const box = s.page.getByRole("dialog", { name: "Find a campaign" }).getByRole("combobox");
  await box.waitFor();
  await s.page.keyboard.type(typed);
  // Enter picks only from the answer to what was typed: wait for it.
  await s.page
    .getByRole("dialog", { name: "Find a campaign" })
    .locator('[role="listbox"][aria-busy="false"]')
    .waitFor();
  return s.page.getByRole("dialog", { name: "Find a campaign" }).getByRole("option");
}

test("every campaign picker finds a campaign past the first 100 by typing, with the keyboard", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 } });
  try {
    await signIn(s.page, "koyo@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    const ids = await manyCampaigns(s.page);
    const last = title(MANY);

    // The reports' campaign filter: opened empty it shows the first page and says there are more.
    await go(s.page, "/reports");
    const filter = s.page.getByRole("combobox", { name: "Campaign: All campaigns" });
    await filter.focus();
    await s.page.keyboard.press("Enter");
    const dialog = s.page.getByRole("dialog", { name: "Find a campaign" });
    await dialog.getByText(/^Showing 50 of \d+: type to narrow$/).waitFor();
    assert.equal(
      await dialog.getByRole("option", { name: last }).count(),
      0,
      "the last is past the first page",
    );
    assert.deepEqual(await axeProblems(s.page), [], "axe with the campaign filter open");
    await s.page.keyboard.type(last);
    await dialog.locator('[role="listbox"][aria-busy="false"]').waitFor();
    await dialog.getByRole("option", { name: new RegExp(`^${last}`) }).waitFor();
    assert.equal(await dialog.getByRole("option").count(), 1, "typing narrows to the one campaign");
    await s.page.keyboard.press("Enter");
    await s.page.waitForURL((u) => u.searchParams.get("campaignId") === ids[last]);
    await s.page.getByRole("combobox", { name: `Campaign: ${last}` }).waitFor();
    await s.page.getByText(`Filtered: Campaign: ${last}.`).waitFor();
    await s.shot("campaign-pickers-1-reports-filter-1280");
    // A link to it names it by id.
    await go(s.page, s.page.url());
    await s.page.getByRole("combobox", { name: `Campaign: ${last}` }).waitFor();
    await s.page.getByText(`Filtered: Campaign: ${last}.`).waitFor();
    // "All campaigns" is the list's first option while nothing is typed.
    await s.page.getByRole("combobox", { name: `Campaign: ${last}` }).click();
    await dialog.getByRole("option", { name: "All campaigns" }).click();
    await s.page.waitForURL((u) => !u.searchParams.has("campaignId"));

    // Campaigns side by side: two of the last, typed one after the other; the list stays open.
    // From an empty comparison (compare=[]), not the three suggested ones (L2).
    await go(s.page, `/reports?view=campaigns&compare=${encodeURIComponent("[]")}`);
    await s.page.getByRole("button", { name: /^Campaigns \(2–4\)/ }).click();
    const picker = s.page.getByRole("dialog", { name: /^Campaigns \(2–4\)/ });
    const box = picker.getByRole("combobox");
    for (const n of [MANY - 1, MANY]) {
      await box.fill(title(n));
      await picker.getByRole("option", { name: new RegExp(`^${title(n)}`) }).click();
      await picker.getByRole("option", { name: new RegExp(`^${title(n)}`), checked: true }).waitFor();
    }
    // At four, the most compared, the others are listed but not offered, and the list says why.
    await box.fill("Zephyr 10");
    for (const n of [101, 102])
      await picker.getByRole("option", { name: new RegExp(`^${title(n)}`) }).click();
    await picker.getByText("4 chosen, the most: take one away to add another").waitFor();
    const fifth = picker.getByRole("option", { name: new RegExp(`^${title(103)}`) });
    assert.equal(await fifth.getAttribute("aria-disabled"), "true", "a fifth campaign is not offered");
    for (const n of [101, 102])
      await picker.getByRole("option", { name: new RegExp(`^${title(n)}`) }).click();
    await s.page.keyboard.press("Escape");
    const table = s.page.getByRole("region", { name: "Campaigns side by side, table" });
    await table.getByRole("link", { name: title(MANY - 1) }).waitFor();
    await table.getByRole("link", { name: last }).waitFor();
    assert.equal(await table.getByRole("link").count(), 2, "the two left after taking two away");
    await s.page.getByRole("button", { name: `Campaigns (2–4) ${title(MANY - 1)}, ${last}` }).waitFor();

    // Recording a gift: the campaign chosen sets the amount's currency, and the gift is recorded to it.
    await go(s.page, "/donations");
    await s.page.getByRole("button", { name: "Record a donation" }).click();
    const record = s.page.getByRole("dialog", { name: "Record a donation" });
    await record.getByLabel("Amount (JPY)").waitFor();
    let options = await search(s, record.getByRole("combobox", { name: "Campaign" }), "zephyr eur");
    await options.filter({ hasText: "Zephyr euro" }).waitFor();
    await s.page.keyboard.press("Enter");
    await record.getByLabel("Amount (EUR)").fill("25.00");
    await record.getByRole("button", { name: "Record donation" }).click();
    await s.page.waitForURL(/\/donations\/[^/]+$/);
    await s.page.getByRole("link", { name: "Zephyr euro" }).waitFor();
    await s.page.getByText("€25.00").first().waitFor();

    // A campaign's own thank-you message: found by typing; one that has a message is listed but not offered.
    await go(s.page, "/organization?section=thanks");
    await s.page.getByRole("button", { name: "Add a campaign message" }).click();
    options = await search(s, s.page.getByRole("combobox", { name: "Campaign" }), last);
    await options.filter({ hasText: last }).waitFor();
    await s.page.keyboard.press("Enter");
    await s.page.getByRole("combobox", { name: "Campaign" }).filter({ hasText: last }).waitFor();
    await s.page.getByRole("button", { name: "Save campaign message" }).click();
    await s.page.getByRole("button", { name: "Add a campaign message" }).click();
    options = await search(s, s.page.getByRole("combobox", { name: "Campaign" }), last);
    const takenOption = options.filter({ hasText: last }).filter({ hasText: "Has its own message" });
    await takenOption.waitFor();
    assert.equal(
      await takenOption.getAttribute("aria-disabled"),
      "true",
      "a campaign with a message is not offered",
    );
    await s.page.keyboard.press("Enter");
    await s.page.keyboard.press("Escape");
    await s.page
      .getByRole("combobox", { name: "Campaign" })
      .filter({ hasText: "Choose a campaign" })
      .waitFor();
  } finally {
    await s.close();
  }
  assert.deepEqual(
    s.errors.filter((e) => !e.includes("favicon")),
    [],
    "no console errors",
  );
});

test("on a phone the list filters' campaign picker works inside the filter sheet (360 px, dark)", async () => {
  const s = await openBrowser({ viewport: { width: 360, height: 780 }, colorScheme: "dark" });
  try {
    await signIn(s.page, "koyo@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    const ids = (await s.page.evaluate(async () => {
      const res = await fetch(
        `/api/trpc/campaigns.list?input=${encodeURIComponent(JSON.stringify({ json: { q: "Zephyr 110", pageSize: 10 } }))}`,
      );
      return ((await res.json()) as { result: { data: { json: { rows: { id: string }[] } } } }).result.data
        .json.rows;
    })) as { id: string }[];
    assert.equal(ids.length, 1, "the first test made the campaigns");
    for (const path of ["/donations", "/recurring"]) {
      await go(s.page, path);
      await s.page.getByRole("button", { name: /^Filters/ }).click();
      const sheet = s.page.getByRole("dialog", { name: /Filters/ });
      const options = await search(
        s,
        sheet.getByRole("combobox", { name: "Campaign: All campaigns" }),
        "110",
      );
      await options.filter({ hasText: title(MANY) }).waitFor();
      assert.deepEqual(await axeProblems(s.page), [], `axe with ${path}'s campaign picker open at 360 px`);
      await s.shot(`campaign-pickers-2-${path.slice(1)}-360-dark`);
      await s.page.keyboard.press("Enter");
      await s.page.waitForURL((u) => u.searchParams.get("campaignId") === ids[0]?.id);
      await sheet.getByRole("combobox", { name: `Campaign: ${title(MANY)}` }).waitFor();
      assert.ok(
        await s.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        `${path} scrolls sideways`,
      );
    }
  } finally {
    await s.close();
  }
});
