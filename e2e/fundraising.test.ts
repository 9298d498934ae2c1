import assert from "node:assert/strict";
import { test } from "node:test";
import { go, openBrowser, signIn } from "./browser.ts";

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
