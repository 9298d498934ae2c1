/**
 * Issue 21, phones and lists: below 640 px every list is a stack of cards showing what a row is
 * worth at a glance (amount, status, date, where the list has them), its filters sit in a sheet
 * behind one "Filters (N)" button, and the page never scrolls sideways. At 1280 px the donations
 * table fits beside the sidebar with its default columns. Rows and cards open their detail page
 * from anywhere on them, and from the keyboard through their link.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { go, openBrowser, signIn } from "./browser.ts";

const MONEY = /[$€£¥]\s?[\d,]+(\.\d\d)?|[\d,]+(\.\d\d)?\s?[$€£¥]/;
const DATE = /[A-Z][a-z]{2} \d{1,2}, \d{4}/;

interface ListCase {
  path: string;
  /** What every card of the list shows. */
  shows: RegExp[];
  /** A filter to set inside the sheet (a select's label), when the list has filters. */
  filter?: string;
}

const LISTS: ListCase[] = [
  {
    path: "/donations",
    shows: [MONEY, DATE, /Completed|Pending|Refunded|Failed|Processing|Disputed/],
    filter: "Currency",
  },
  { path: "/donors", shows: [MONEY, /Last donation/], filter: "Tier" },
  { path: "/campaigns", shows: [MONEY, /Active|Draft|Completed|Paused|Archived/], filter: "Goal" },
  { path: "/organizers", shows: [/Active|Invited|Banned|Expired/], filter: "Organization" },
  { path: "/users", shows: [DATE, /Joined/, /Verified|Unverified|Banned/] },
];

async function noSidewaysScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test("at 360 px each list is cards with amount, status and date, and its filters are in a sheet with a count", async () => {
  const s = await openBrowser({ viewport: { width: 360, height: 780 } });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL(/dashboard/);
    for (const list of LISTS) {
      await go(s.page, list.path);
      const cards = s.page.locator("[data-slot=list-card]");
      await cards.first().waitFor();
      // Cards replace the table (not merely hide it): one copy of every link and control.
      assert.equal(await s.page.locator("[data-slot=list-table]").count(), 0, `${list.path}: table left in`);
      const first = (await cards.first().innerText()).replace(/\s+/g, " ");
      for (const re of list.shows) assert.match(first, re, `${list.path}: the card shows ${re}`);
      assert.ok(await noSidewaysScroll(s.page), `${list.path} scrolls sideways at 360 px`);

      const filters = s.page.getByRole("button", { name: /^Filters/ });
      if (!list.filter) {
        assert.equal(await filters.count(), 0, `${list.path} has no filters to show`);
        continue;
      }
      // The search box stays out of the sheet.
      await s.page.getByRole("textbox", { name: "Search" }).waitFor();
      assert.equal(
        await s.page.getByRole("combobox", { name: list.filter, exact: true }).count(),
        0,
        `${list.path}: ${list.filter} outside the sheet`,
      );
      await filters.click();
      const sheet = s.page.getByRole("dialog", { name: /^Filters/ });
      await sheet.waitFor();
      const before = new URL(s.page.url()).search;
      await sheet.getByRole("combobox", { name: list.filter, exact: true }).selectOption({ index: 1 });
      await s.page.waitForURL((u) => u.search !== before);
      // The link names the choice only: the list's defaults (page 1, 25 rows, its sort) stay out.
      const keys = [...new URL(s.page.url()).searchParams.keys()];
      assert.equal(keys.length, 1, `${list.path}: the URL spells ${keys.join(", ")}`);
      await sheet.getByRole("heading", { name: "Filters (1)" }).waitFor();
      await sheet.getByRole("button", { name: "Show results" }).click();
      await sheet.waitFor({ state: "hidden" });
      await s.page.getByRole("button", { name: "Filters (1)" }).waitFor();
    }

    // A tap anywhere on a card (here its empty right-hand side, under the amount) opens the row:
    // the title link's ::after covers the card.
    await go(s.page, "/donations");
    const card = s.page.locator("[data-slot=list-card]").first();
    const href = await card.locator("[data-card-title] a").getAttribute("href");
    await card.click({ position: { x: 300, y: 60 } });
    await s.page.waitForURL((u) => u.pathname === href);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("at 1280 px the donations table fits without sideways scrolling; rows open by click and by Enter", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL(/dashboard/);
    await go(s.page, "/donations");
    const rows = s.page.locator("tbody tr");
    await rows.first().locator("a").waitFor();
    assert.equal(await s.page.locator("[data-slot=list-card]").count(), 0);
    const fits = await s.page.evaluate(() => {
      const box = document.querySelector("[data-slot=list-table] [data-slot=table-container]");
      return box ? { scroll: box.scrollWidth, client: box.clientWidth } : null;
    });
    assert.ok(fits && fits.scroll <= fits.client, `table ${JSON.stringify(fits)}`);
    assert.ok(await noSidewaysScroll(s.page));
    // The columns left out by default are one tick away.
    await s.page.getByRole("button", { name: "Columns" }).click();
    await s.page.getByRole("menuitemcheckbox", { name: "Method" }).waitFor();
    await s.page.keyboard.press("Escape");

    // A click on the row's empty space (its date cell) opens it; a click on its checkbox selects.
    const row = rows.first();
    const href = await row.locator("a").first().getAttribute("href");
    assert.match(href ?? "", /^\/donations\/[^/]+$/);
    await row.getByRole("checkbox", { name: "Select row" }).click();
    await s.page.getByRole("region", { name: "Bulk actions" }).waitFor();
    assert.equal(new URL(s.page.url()).pathname, "/donations");
    await row.locator("td").last().click();
    await s.page.waitForURL((u) => u.pathname === href);

    // The keyboard path is the row's link: focus it, press Enter.
    await go(s.page, "/donations");
    const link = rows.nth(1).locator("a").first();
    const second = await link.getAttribute("href");
    await link.focus();
    await s.page.keyboard.press("Enter");
    await s.page.waitForURL((u) => u.pathname === second);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
