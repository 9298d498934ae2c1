/**
 * axe-core finds nothing critical or serious on the portal's screens: as each role that reaches
 * them, at desktop and phone widths, in light and dark. (How we work, 7: the screens are looked at
 * as a user would; this keeps the machine-checkable part of that from sliding back.)
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, signIn } from "./browser.ts";

const MEMBER_PAGES = [
  "/dashboard",
  "/donations",
  "/donors",
  "/campaigns",
  "/organization",
  "/profile",
  "/settings",
];
const ADMIN_PAGES = [...MEMBER_PAGES, "/organizers", "/organization-badges", "/donor-tiers", "/users"];
const PUBLIC_PAGES = ["/login", "/sign-up", "/forgot-password", "/accept-invitation?id=unknown"];

const runs = [
  { who: "admin", email: "admin@almoner.test", pages: ADMIN_PAGES, width: 1280, scheme: "light" },
  { who: "admin", email: "admin@almoner.test", pages: ADMIN_PAGES, width: 360, scheme: "dark" },
  { who: "viewer", email: "member@almoner.test", pages: MEMBER_PAGES, width: 1280, scheme: "dark" },
  { who: "viewer", email: "member@almoner.test", pages: MEMBER_PAGES, width: 360, scheme: "light" },
  { who: "organizer", email: "organizer@almoner.test", pages: MEMBER_PAGES, width: 1280, scheme: "light" },
] as const;

async function problemsOn(page: Parameters<typeof axeProblems>[0], path: string) {
  await go(page, path);
  await page.waitForLoadState("networkidle");
  return (await axeProblems(page)).map((p) => `${path}: ${p}`);
}

test("public pages, light and dark, desktop and phone", async () => {
  const found: string[] = [];
  for (const [width, scheme] of [
    [1280, "light"],
    [360, "dark"],
  ] as const) {
    const s = await openBrowser({ viewport: { width, height: 800 }, colorScheme: scheme });
    try {
      for (const path of PUBLIC_PAGES)
        found.push(...(await problemsOn(s.page, path)).map((p) => `${width} ${scheme} ${p}`));
    } finally {
      await s.close();
    }
  }
  assert.deepEqual(found, []);
});

for (const run of runs) {
  test(`${run.who}'s pages at ${run.width} px, ${run.scheme}`, async () => {
    const s = await openBrowser({ viewport: { width: run.width, height: 800 }, colorScheme: run.scheme });
    try {
      await signIn(s.page, run.email);
      await s.page.waitForURL(/\/dashboard/);
      const found: string[] = [];
      for (const path of run.pages) found.push(...(await problemsOn(s.page, path)));
      assert.deepEqual(found, []);
    } finally {
      await s.close();
    }
  });
}
