import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { go, openBrowser, signIn } from "./browser.ts";

/**
 * Issue 19: the portal shows what the server's rule grants (access.capabilities, core/permissions.ts).
 * The same pages are opened as an admin (the write actions are there: the selectors are right) and
 * as a viewer of the same organization (none of them is).
 */

/**
 * The first link on the page whose path matches `re` (a row of a list), waiting for the list to load.
 * Rows reading "Anonymized" are passed over: an anonymized donor has no Edit for anyone, and the donors
 * suite (e2e/donors.test.ts) may have anonymized the donor that sorts first.
 */
async function firstHref(page: Page, prefix: string, re: RegExp): Promise<string> {
  const found = await page.waitForFunction(
    ([prefix, source]) => {
      const pattern = new RegExp(source);
      const links = [...document.querySelectorAll(`a[href^="${prefix}"]`)].filter(
        (a) => !a.closest("tr")?.textContent?.includes("Anonymized"),
      );
      const hrefs = links.map((a) => a.getAttribute("href"));
      return hrefs.find((h) => !!h && pattern.test(h)) ?? null;
    },
    [prefix, re.source] as const,
  );
  const href = await found.jsonValue();
  assert.ok(typeof href === "string" && re.test(href), `no link like ${re}`);
  return href;
}

const WRITE_BUTTONS = {
  // Export CSV: the server refuses a viewer's export (issue 53, M4), so the page does not offer it.
  donations: ["Record a donation", "Import", "Export CSV"],
  donation: ["Move to trash"],
  donors: ["New donor", "Tags", "Import", "Export CSV"],
  donor: ["Record a donation", "Merge", "Anonymize", "Delete", "Add"],
  campaigns: ["New campaign"],
  campaign: ["Edit", "Pause", "Resume", "Publish"],
} as const;

async function countAll(page: Page, names: readonly string[]) {
  const counts: Record<string, number> = {};
  for (const name of names) {
    counts[name] =
      (await page.getByRole("button", { name, exact: true }).count()) +
      (await page.getByRole("link", { name, exact: true }).count());
  }
  return counts;
}

test("a viewer sees no write actions on the donations, donors and campaigns pages", async () => {
  const admin = await openBrowser();
  const viewer = await openBrowser();
  try {
    await signIn(admin.page, "admin@almoner.test");
    await admin.page.waitForURL((u) => u.pathname === "/dashboard");
    await signIn(viewer.page, "member@almoner.test");
    await viewer.page.waitForURL((u) => u.pathname === "/dashboard");

    // Donations: the list and one gift.
    await go(admin.page, "/donations");
    const donation = await firstHref(admin.page, "/donations/", /^\/donations\/(?!import$)[A-Za-z0-9_-]+$/);
    await admin.page.getByRole("button", { name: "Record a donation" }).waitFor();
    await admin.page.getByRole("button", { name: "Export CSV" }).waitFor();
    await go(viewer.page, "/donations");
    await viewer.page.getByRole("heading", { name: "Donations", level: 1 }).waitFor();
    await firstHref(viewer.page, "/donations/", /^\/donations\/(?!import$)[A-Za-z0-9_-]+$/);
    assert.deepEqual(await countAll(viewer.page, WRITE_BUTTONS.donations), {
      "Record a donation": 0,
      Import: 0,
      "Export CSV": 0,
    });
    // No row selection either: bulk status changes are updates.
    assert.equal(await viewer.page.getByLabel("Select all rows on this page").count(), 0);

    await go(admin.page, donation);
    await admin.page.getByRole("button", { name: "Move to trash" }).waitFor();
    await admin.page.getByRole("link", { name: "Edit", exact: true }).first().waitFor();
    await go(viewer.page, donation);
    await viewer.page.getByText("Your role views donations without changing them.").waitFor();
    assert.deepEqual(await countAll(viewer.page, [...WRITE_BUTTONS.donation, "Edit"]), {
      "Move to trash": 0,
      Edit: 0,
    });
    assert.equal(await viewer.page.getByRole("button", { name: /^Mark / }).count(), 0);
    assert.equal(await viewer.page.getByRole("button", { name: /^Correct / }).count(), 0);
    await viewer.shot("viewer-donation");

    // Donors: the list and one donor.
    await go(admin.page, "/donors");
    const donor = await firstHref(admin.page, "/donors/", /^\/donors\/(?!create$|import$)[A-Za-z0-9_-]+$/);
    await admin.page.getByRole("link", { name: "New donor" }).waitFor();
    await admin.page.getByRole("button", { name: "Export CSV" }).waitFor();
    await go(viewer.page, "/donors");
    await firstHref(viewer.page, "/donors/", /^\/donors\/(?!create$|import$)[A-Za-z0-9_-]+$/);
    assert.deepEqual(await countAll(viewer.page, WRITE_BUTTONS.donors), {
      "New donor": 0,
      Tags: 0,
      Import: 0,
      "Export CSV": 0,
    });
    assert.equal(await viewer.page.getByLabel("Select all rows on this page").count(), 0);

    await go(admin.page, donor);
    await admin.page.getByRole("link", { name: "Edit", exact: true }).first().waitFor();
    await admin.page.getByRole("button", { name: "Delete", exact: true }).first().waitFor();
    await go(viewer.page, donor);
    await viewer.page.getByText("Lifetime", { exact: true }).first().waitFor();
    assert.deepEqual(await countAll(viewer.page, [...WRITE_BUTTONS.donor, "Edit"]), {
      "Record a donation": 0,
      Merge: 0,
      Anonymize: 0,
      Delete: 0,
      Add: 0,
      Edit: 0,
    });
    assert.equal(await viewer.page.getByLabel("Add a tag").count(), 0);
    assert.equal(await viewer.page.getByRole("button", { name: /tier$/ }).count(), 0);
    await viewer.shot("viewer-donor");

    // Campaigns: the list and one campaign.
    await go(admin.page, "/campaigns");
    const campaign = await firstHref(admin.page, "/campaigns/", /^\/campaigns\/(?!create$)[A-Za-z0-9_-]+$/);
    await admin.page.getByRole("link", { name: "New campaign" }).waitFor();
    await go(viewer.page, "/campaigns");
    await firstHref(viewer.page, "/campaigns/", /^\/campaigns\/(?!create$)[A-Za-z0-9_-]+$/);
    assert.deepEqual(await countAll(viewer.page, WRITE_BUTTONS.campaigns), { "New campaign": 0 });
    assert.equal(await viewer.page.getByLabel("Select all rows on this page").count(), 0);

    await go(admin.page, campaign);
    await admin.page.getByRole("button", { name: "Edit", exact: true }).waitFor();
    await go(viewer.page, campaign);
    await viewer.page.getByText("Donations / donors").waitFor();
    assert.deepEqual(await countAll(viewer.page, WRITE_BUTTONS.campaign), {
      Edit: 0,
      Pause: 0,
      Resume: 0,
      Publish: 0,
    });
    await go(viewer.page, `${campaign}/items`);
    await viewer.page.getByText("Fundable items donors can choose.").waitFor();
    assert.equal(await viewer.page.getByRole("button", { name: "Add item" }).count(), 0);
    // An item's own buttons are the editors'; its Gifts link is for everyone who reads gifts
    // (src/features/campaigns/campaign-items-page.tsx). The items are counted once they are shown.
    await viewer.page
      .getByText("No items yet.")
      .or(viewer.page.getByRole("link", { name: /^Donations for / }).first())
      .waitFor();
    assert.equal(
      await viewer.page
        .getByRole("button", { name: /^(Edit |Deactivate|Activate|Archive|Unarchive|Delete)/ })
        .count(),
      0,
    );

    // The forms that only write send the viewer back (src/lib/auth/guards.ts requireCan).
    await go(viewer.page, "/campaigns/create");
    await viewer.page.waitForURL((u) => u.pathname === "/campaigns");
    await go(viewer.page, `${donation}/edit`);
    await viewer.page.waitForURL((u) => u.pathname === donation);
  } finally {
    await admin.close();
    await viewer.close();
  }
});

test("a user listed in AUTH_ADMIN_USER_IDS (platform role user) opens the admin screens", async () => {
  // scripts/e2e.mjs lists this seeded user, whose role in the database is not admin.
  const email = process.env.E2E_CONFIGURED_ADMIN_EMAIL;
  assert.ok(email, "scripts/e2e.mjs sets E2E_CONFIGURED_ADMIN_EMAIL");
  const s = await openBrowser();
  try {
    await signIn(s.page, email);
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    // The admin-only navigation is shown…
    await s.page.getByRole("link", { name: "Organizers" }).first().waitFor();
    // …and the guards let them in (no bounce to /dashboard?forbidden).
    await go(s.page, "/organizers");
    await s.page.getByRole("heading", { name: "Organizers", level: 1 }).waitFor();
    assert.equal(new URL(s.page.url()).pathname, "/organizers");
    await go(s.page, "/users");
    await s.page.waitForURL((u) => u.pathname === "/users");
    await s.page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
