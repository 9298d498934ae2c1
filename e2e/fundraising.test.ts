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

test("an admin records an offline gift, refunds part of it, finds it from the dashboard and exports the list", async () => {
  const s = await openBrowser();
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/donations");
    await s.page.getByRole("button", { name: "Record a donation" }).click();
    await s.page.getByLabel("Amount").fill("123.45");
    await s.page.getByRole("dialog").getByRole("button", { name: "Record donation" }).click();
    await s.page.waitForURL(/\/donations\/[A-Za-z0-9]+$/);
    await s.page.getByRole("button", { name: "Mark partially refunded" }).click();
    await s.page.getByLabel(/Amount refunded now/).fill("23.45");
    await s.page.getByLabel("Reason").fill("Part of it was a duplicate");
    await s.page.getByRole("button", { name: "Confirm" }).click();
    await s.page.getByText("Partially refunded").first().waitFor();
    await s.page.getByText("$100.00").first().waitFor();
    await s.shot("donation-detail");
    await go(s.page, "/dashboard?days=7");
    await s.page
      .getByRole("link", { name: /Donations/ })
      .filter({ hasText: "vs previous" })
      .first()
      .click();
    await s.page.waitForURL(/\/donations\?/);
    await s.page.getByText("$123.45").first().waitFor();
    const download = s.page.waitForEvent("download");
    await s.page.getByRole("link", { name: "Export CSV" }).click();
    const file = await download;
    const path = await file.path();
    const { readFileSync } = await import("node:fs");
    const csv = readFileSync(path, "utf8");
    assert.match(csv, /^\uFEFFnumber,donated_at,status,amount/);
    assert.match(csv, /partially_refunded,123\.45,23\.45/);
    await s.shot("donations-list");
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
