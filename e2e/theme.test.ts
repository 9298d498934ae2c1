/**
 * The colour scheme (issue 21): chosen in /settings, remembered (a cookie the server reads, so the
 * first paint is right), "System" following the operating system live, and native controls drawn
 * for the scheme (`color-scheme`), e.g. the donation list's selects.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { go, openBrowser, signIn } from "./browser.ts";

const scheme = (page: Page) =>
  page.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    colorScheme: getComputedStyle(document.documentElement).colorScheme,
    background: getComputedStyle(document.body).backgroundColor,
  }));

test("dark is chosen in settings, applies at once, survives a reload and reaches native controls", async () => {
  const s = await openBrowser({ colorScheme: "light" });
  try {
    await signIn(s.page, "member@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/settings");
    const group = s.page.getByRole("group", { name: "Theme" });
    assert.equal(await group.getByRole("radio", { name: /System/ }).isChecked(), true);
    const light = await scheme(s.page);
    assert.equal(light.colorScheme, "light");

    await group.getByText("Dark", { exact: true }).click();
    assert.equal(await group.getByRole("radio", { name: /Dark/ }).isChecked(), true);
    const dark = await scheme(s.page);
    assert.deepEqual([dark.theme, dark.colorScheme], ["dark", "dark"]);
    assert.notEqual(dark.background, light.background);

    // The server renders it: the HTML itself says dark, before any script runs.
    const html = await (await s.page.request.get("/settings")).text();
    assert.match(html, /<html[^>]*data-theme="dark"/);
    await s.page.reload();
    await s.page.waitForSelector('html[data-hydrated="true"]');
    assert.deepEqual(await scheme(s.page), dark);
    assert.equal(await s.page.getByRole("radio", { name: /Dark/ }).isChecked(), true);

    // Native selects on the donation list are drawn dark too.
    await go(s.page, "/donations");
    const select = s.page.locator("select").first();
    await select.waitFor();
    assert.equal(await select.evaluate((el) => getComputedStyle(el).colorScheme), "dark");
    await s.page.reload();
    await s.page.waitForSelector('html[data-hydrated="true"]');
    assert.equal((await scheme(s.page)).theme, "dark");
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("light overrides a dark system; system follows the operating system as it changes", async () => {
  const s = await openBrowser({ colorScheme: "dark" });
  try {
    await signIn(s.page, "member@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/settings");
    assert.equal((await scheme(s.page)).colorScheme, "dark");
    const group = s.page.getByRole("group", { name: "Theme" });

    await group.getByText("Light", { exact: true }).click();
    assert.equal((await scheme(s.page)).colorScheme, "light");
    await s.page.reload();
    await s.page.waitForSelector('html[data-hydrated="true"]');
    assert.equal((await scheme(s.page)).colorScheme, "light");

    await s.page.getByRole("group", { name: "Theme" }).getByText("System", { exact: true }).click();
    assert.equal((await scheme(s.page)).colorScheme, "dark");
    await s.page.emulateMedia({ colorScheme: "light" });
    assert.equal((await scheme(s.page)).colorScheme, "light");
    await s.page.emulateMedia({ colorScheme: "dark" });
    assert.equal((await scheme(s.page)).colorScheme, "dark");
    await s.page.reload();
    await s.page.waitForSelector('html[data-hydrated="true"]');
    assert.equal(await s.page.getByRole("radio", { name: /System/ }).isChecked(), true);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
