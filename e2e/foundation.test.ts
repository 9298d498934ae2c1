import assert from "node:assert/strict";
import { test } from "node:test";
import { BASE_URL, openBrowser } from "./browser.ts";

test("/ sends a guest to /login, without console errors", async () => {
  const s = await openBrowser();
  try {
    await s.page.goto("/");
    await s.page.waitForURL(/\/login/);
    await s.page.getByRole("button", { name: "Sign in" }).waitFor();
    assert.equal(new URL(s.page.url()).pathname, "/login");
    await s.shot("login");
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("/ shows the Initializing... spinner while the session check runs", async () => {
  const s = await openBrowser();
  try {
    // A stale cookie makes the check a real round trip; hold get-session until we have looked.
    await s.context.addCookies([{ name: "better-auth.session_token", value: "stale.token", url: BASE_URL }]);
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await s.page.route("**/api/auth/get-session*", async (route) => {
      await held;
      await route.continue();
    });
    await s.page.goto("/");
    // The pending view and the route component render the same spinner during the hand-over, and
    // React may keep a hidden copy while a boundary re-suspends: wait for whichever one shows.
    const spinner = s.page.getByText("Initializing...").filter({ visible: true }).first();
    await spinner.waitFor({ state: "visible" });
    await s.shot("initializing");
    release();
    await s.page.waitForURL(/\/login/);
    assert.equal(new URL(s.page.url()).pathname, "/login");
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("a signed-out visit to a portal page goes to /login with the address as redirect", async () => {
  const s = await openBrowser();
  try {
    await s.page.goto("/donors?page=2");
    await s.page.waitForURL(/\/login/);
    const url = new URL(s.page.url());
    assert.match(url.searchParams.get("redirect") ?? "", /^\/donors\?page=2(&|$)/);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("the status page reads D1 and KV through tRPC", async () => {
  const s = await openBrowser();
  try {
    await s.page.goto("/status");
    const badge = s.page.getByTestId("health-status");
    await badge.waitFor();
    assert.equal(await badge.textContent(), "ok");
    await s.shot("status");
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("/favicon.ico answers with an icon (browsers and PDF tabs ask for it by that name)", async () => {
  const res = await fetch(new URL("/favicon.ico", BASE_URL));
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /image\/(x-icon|vnd\.microsoft\.icon)/);
  const bytes = new Uint8Array(await res.arrayBuffer());
  // An ICO file: reserved 0, type 1 (icon), at least one image.
  assert.deepEqual([...bytes.slice(0, 4)], [0, 0, 1, 0]);
  assert.ok(bytes[4] && bytes[4] > 0);
});
