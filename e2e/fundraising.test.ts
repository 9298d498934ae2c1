import assert from "node:assert/strict";
import { test } from "node:test";
import { go, openBrowser, signIn } from "./browser.ts";

test("an organizer creates a campaign, adds an item, publishes, pauses and resumes it, and opens its pages", async () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 360, height: 780 },
  ]) {
    const s = await openBrowser({ viewport });
    const suffix = `${viewport.width}-${Date.now().toString(36)}`;
    try {
      await signIn(s.page, "organizer@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      await go(s.page, "/campaigns/create");
      await s.page.getByLabel("Title").fill("ab");
      await s.page.getByRole("button", { name: "Create campaign" }).click();
      await s.page.getByText("At least 3 characters").waitFor();
      await s.page.getByLabel("Title").fill(`Coat drive ${suffix}`);
      await s.page.getByLabel(/Goal amount/).fill("1500.00");
      await s.page.getByRole("button", { name: "Create campaign" }).click();
      await s.page.waitForURL(/\/campaigns\/[A-Za-z0-9]+$/);
      await s.page.getByRole("button", { name: "Publish" }).click();
      await s.page.getByRole("button", { name: "Pause" }).waitFor();
      await s.page.getByRole("button", { name: "Pause" }).click();
      await s.page.getByRole("button", { name: "Resume" }).click();
      await s.page.getByRole("button", { name: "Pause" }).waitFor();
      await s.shot(`campaign-detail-${viewport.width}`);
      await s.page.getByRole("link", { name: "Items" }).click();
      await s.page.getByRole("button", { name: "Add item" }).first().click();
      await s.page.getByLabel("Title").fill("Winter coat");
      await s.page.getByLabel(/Unit amount/).fill("45");
      await s.page.getByLabel("Quantity needed", { exact: true }).fill("20");
      await s.page.getByRole("dialog").getByRole("button", { name: "Add item" }).click();
      await s.page.getByText("0 of 20 funded").waitFor();
      await s.page.getByRole("link", { name: "Analytics" }).click();
      await s.page.getByText("Unique donors").waitFor();
      await s.shot(`campaign-analytics-${viewport.width}`);
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  }
});

test("a donor is created, the duplicate warning shows, and a tag is added in bulk", async () => {
  const s = await openBrowser({ viewport: { width: 360, height: 780 } });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    const email = `e2e-${Date.now().toString(36)}@example.org`;
    for (let i = 0; i < 2; i++) {
      await go(s.page, "/donors/create");
      await s.page.getByLabel("First name").fill("Edie");
      await s.page.getByLabel("Last name").fill("Tester");
      await s.page.getByLabel("E-mail", { exact: true }).fill(email);
      await s.page.getByRole("button", { name: "Create donor" }).click();
      if (i === 0) await s.page.waitForURL(/\/donors\/[A-Za-z0-9]+$/);
    }
    await s.page.getByText("A donor with this e-mail already exists.").waitFor();
    await s.shot("donor-duplicate-360");
    await go(s.page, `/donors?q=${encodeURIComponent(email)}`);
    await s.page.getByRole("checkbox", { name: "Select row" }).first().check();
    await s.page.getByLabel("Tag to apply").selectOption({ label: "Board" });
    await s.page.getByRole("button", { name: "Add tag" }).click();
    await s.page.getByText("Board").last().waitFor();
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
