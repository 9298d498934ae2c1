/**
 * Issue 20: no address makes the portal answer 500. Every route of src/routeTree.gen.ts is opened,
 * as a guest and as a platform admin, with search parameters a person (or a crawler, or an
 * attacker's link) could send: missing required ones, wrong types, control characters, broken
 * percent-encoding. Each must answer a proper page or a 4xx, never "Something went wrong!" or a 5xx.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { openBrowser, signIn } from "./browser.ts";

/** The fullPaths of src/routeTree.gen.ts, with "x" for every path parameter. */
const ROUTES = [
  "/",
  "/accept-invitation",
  "/forgot-password",
  "/login",
  "/onboarding",
  "/reset-password",
  "/sign-up",
  "/status",
  "/dashboard",
  "/organization",
  "/organization-requests",
  "/profile",
  "/settings",
  "/users",
  "/dev/mail",
  "/campaigns/create",
  "/donors/create",
  "/donors/import",
  "/donations/import",
  "/organizers/create",
  "/users/x",
  "/p/x/x",
  "/campaigns/",
  "/donations/",
  "/donor-tiers/",
  "/donors/",
  "/recurring/",
  "/reports/",
  "/organization-badges/",
  "/organizers/",
  "/campaigns/x/analytics",
  "/campaigns/x/items",
  "/donations/x/edit",
  "/donors/x/edit",
  "/campaigns/x/",
  "/donations/x/",
  "/donors/x/",
  "/recurring/x/",
  "/organizers/x/",
];

const BROKEN_SEARCHES = [
  // No id; a redirect that a browser reads as "//evil.example" (it drops tab and newline in URLs);
  // numbers that are not numbers, unknown enum values, control and bidi characters.
  "?redirect=%2F%09%2Fevil.example&page=-1&pageSize=abc&days=x&scope=everything&sort=%00&dir=sideways&status=%E2%80%AE&forbidden=maybe",
  // Broken percent-encoding (a signed-in user on /login is sent to the redirect) and half JSON.
  "?id=%ZZ&redirect=%&page=%7B%22a%22%3A1&token=%00",
  // The router reads search values as JSON: a required id as an object and then as a list, a
  // string parameter as a list, null, markup.
  '?id={"a":[1,2]}&id=&redirect=[]&token=null&error=<script>&denied=yes',
];

async function visitAll(page: Page, who: string) {
  const failures: string[] = [];
  // Every document the navigation fetched, redirects included (a redirect to a broken address
  // counts against the page that sent it).
  const documents: { url: string; status: number }[] = [];
  page.on("response", (res) => {
    if (res.request().isNavigationRequest() && res.frame() === page.mainFrame())
      documents.push({ url: res.url(), status: res.status() });
  });
  for (const route of ROUTES) {
    for (const search of BROKEN_SEARCHES) {
      const url = `${route}${search}`;
      documents.length = 0;
      const opened = await page.goto(url).catch((error: Error) => error);
      if (opened instanceof Error) failures.push(`${who} ${url}: ${opened.message.split("\n")[0]}`);
      for (const d of documents)
        if (d.status >= 500) failures.push(`${who} ${url}: status ${d.status} at ${d.url}`);
      // Hydrated pages can still fall into the error screen; a 4xx page may stay server-rendered.
      await page.waitForSelector('html[data-hydrated="true"]', { timeout: 2000 }).catch(() => {});
      const text = await page
        .locator("body")
        .innerText()
        .catch(() => "");
      if (text.includes("Something went wrong!")) failures.push(`${who} ${url}: error page`);
    }
  }
  assert.deepEqual(failures, []);
}

test("every route, opened as a guest with broken search parameters: no 500, no error page", async () => {
  const s = await openBrowser();
  try {
    await visitAll(s.page, "guest");
  } finally {
    await s.close();
  }
});

test("every route, opened as a platform admin with broken search parameters: no 500, no error page", async () => {
  const s = await openBrowser();
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL(/\/dashboard/);
    await visitAll(s.page, "admin");
  } finally {
    await s.close();
  }
});
