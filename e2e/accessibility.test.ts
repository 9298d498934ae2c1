/**
 * axe-core finds nothing critical or serious (and no page without its h1 or main landmark) on any
 * route of the portal: as a guest and as each demo role (README, "Demo logins"), at 1280 and
 * 360 px, each width in light for some roles and dark for others so both schemes are covered at
 * both widths. At 360 px the navigation sheet is opened and checked too. (How we work, 7: the
 * screens are looked at as a user would; this keeps the machine-checkable part from sliding back.)
 *
 * One browser per role and width; a route that lands on a page this browser already checked (a
 * guest sent to /login, a viewer sent away from an admin page) is not checked twice. The summary
 * (route × role × width → rule ids) is printed at the end, pass or fail.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { Page } from "playwright-core";
import { axeViolations, type Violation } from "./a11y.ts";
import { go, openBrowser, signIn } from "./browser.ts";

/**
 * Every route of src/routeTree.gen.ts (the list of e2e/routes.test.ts), plus an unknown address
 * for the 404 page. `:name` is a real id, read from links on pages seen before it (lists come
 * first): the role's own when it saw one, else one another role saw, else "x".
 */
const PUBLIC_ROUTES = [
  "/login",
  "/sign-up",
  "/forgot-password",
  "/reset-password?token=unknown",
  "/accept-invitation?token=unknown",
  "/status",
  "/dev/mail",
  "/no-such-page",
  "/p/:public",
];
const PORTAL_ROUTES = [
  "/",
  "/dashboard",
  "/campaigns",
  "/donations",
  "/recurring",
  "/donors",
  "/reports",
  "/organization",
  "/organizers",
  "/organization-badges",
  "/organization-requests",
  "/donor-tiers",
  "/users",
  "/profile",
  "/settings",
  // Outside the portal (decision 044): a person without an organization starts one here.
  "/onboarding",
  "/campaigns/create",
  "/donors/create",
  "/donors/import",
  "/donations/import",
  "/organizers/create",
  "/donations/:donation",
  "/donations/:donation/edit",
  "/campaigns/:campaign",
  "/campaigns/:campaign/items",
  "/campaigns/:campaign/analytics",
  "/recurring/:plan",
  "/donors/:donor",
  "/donors/:donor/edit",
  "/organizers/:organizer",
  "/users/:user",
  // An unknown record inside the shell (its 404 sits in the shell's main landmark).
  "/campaigns/no-such-campaign",
];

const ID_LINKS: Record<string, RegExp> = {
  donation: /^\/donations\/(?!import$)([^/?#]+)$/,
  campaign: /^\/campaigns\/(?!create$)([^/?#]+)$/,
  donor: /^\/donors\/(?!create$|import$)([^/?#]+)$/,
  plan: /^\/recurring\/([^/?#]+)$/,
  organizer: /^\/organizers\/(?!create$)([^/?#]+)$/,
  user: /^\/users\/([^/?#]+)$/,
  public: /^\/p\/([^/?#]+\/[^/?#]+)$/,
};

/**
 * The signed-out pages look the same to everyone: the guest checks them (after the signed-in
 * roles, so the public campaign page has a real address); each demo role checks the portal.
 */
const ROLES = [
  { who: "admin", email: "admin@almoner.test", routes: PORTAL_ROUTES },
  { who: "owner", email: "lumiere@almoner.test", routes: PORTAL_ROUTES },
  { who: "organizer", email: "organizer@almoner.test", routes: PORTAL_ROUTES },
  { who: "viewer", email: "member@almoner.test", routes: PORTAL_ROUTES },
  { who: "outsider", email: "outsider@almoner.test", routes: PORTAL_ROUTES },
  { who: "guest", email: null, routes: [...PUBLIC_ROUTES, ...PORTAL_ROUTES] },
] as const;

interface Checked {
  who: string;
  width: number;
  scheme: string;
  path: string;
  violations: Violation[];
  /** Milliseconds to open and settle, and for axe. */
  ms: number[];
}
const checked: Checked[] = [];
// The seed's first Harbor Light campaign (README: the demo world is the same on every seed), for
// when no role's pages linked to a public page.
const seenByAnyone: Record<string, string> = { public: "harbor-light/winter-shelter-2026" };
const started = Date.now();

/**
 * Hydrated, and nothing left loading: no pending-route spinner, no skeleton, no busy region. (Not
 * "networkidle": its half-second of quiet per page cost more than the checks.)
 */
async function settled(page: Page) {
  await page
    .waitForFunction(
      () =>
        !document.querySelector(
          '[data-slot="full-screen-spinner"], [data-slot="skeleton"], [aria-busy="true"], [data-slot="spinner"]',
        ),
      undefined,
      { timeout: 5_000, polling: 50 },
    )
    .catch(() => {});
}

async function collectIds(page: Page, ids: Record<string, string>) {
  const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => a.getAttribute("href") ?? ""));
  for (const href of hrefs)
    for (const [name, pattern] of Object.entries(ID_LINKS)) {
      const m = pattern.exec(href);
      if (m?.[1] && !ids[name]) {
        ids[name] = m[1];
        seenByAnyone[name] ??= m[1];
      }
    }
}

ROLES.forEach((role, r) => {
  // Each page is opened once, checked at 1280 px, then narrowed to 360 px (and switched to the
  // other scheme) and checked again: one page load for two checks.
  const looks = [
    { width: 1280, scheme: r % 2 === 0 ? "light" : "dark" },
    { width: 360, scheme: r % 2 === 0 ? "dark" : "light" },
  ] as const;
  test(`every route as ${role.who}: 1280 px ${looks[0].scheme}, 360 px ${looks[1].scheme}`, async () => {
    const s = await openBrowser({ viewport: { width: 1280, height: 800 }, colorScheme: looks[0].scheme });
    const found: string[] = [];
    const check = async (look: (typeof looks)[number], path: string) => {
      await s.page.setViewportSize({ width: look.width, height: 800 });
      await s.page.emulateMedia({ colorScheme: look.scheme });
      // axeViolations lets layout and colour transitions finish first (e2e/a11y.ts `animationsDone`).
      const t = Date.now();
      const violations = await axeViolations(s.page);
      checked.push({
        who: role.who,
        width: look.width,
        scheme: look.scheme,
        path,
        violations,
        ms: [Date.now() - t],
      });
      for (const v of violations)
        found.push(
          `${look.width} ${path}: ${v.impact} ${v.id} (${v.help}) — ${v.targets.slice(0, 3).join(", ")}`,
        );
    };
    try {
      if (role.email) {
        await signIn(s.page, role.email);
        // The outsider (no organization) is refused and stays on /login: its check goes on from there.
        await s.page.waitForURL((url) => url.pathname !== "/login", { timeout: 5_000 }).catch(() => {});
      }
      const ids: Record<string, string> = {};
      const landedOn = new Set<string>();
      for (const route of role.routes) {
        const path = route.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? seenByAnyone[name] ?? "x");
        await s.page.setViewportSize({ width: looks[0].width, height: 800 });
        await s.page.emulateMedia({ colorScheme: looks[0].scheme });
        await go(s.page, path);
        await settled(s.page);
        const landed = new URL(s.page.url()).pathname;
        if (landedOn.has(landed)) continue;
        landedOn.add(landed);
        const name = path === landed ? path : `${path} → ${landed}`;
        await check(looks[0], name);
        await check(looks[1], name);
        await collectIds(s.page, ids);
        // The phone navigation sheet, open, once.
        if (landed === "/dashboard") {
          await s.page.getByRole("button", { name: "Open navigation" }).click();
          await s.page.getByRole("dialog").waitFor();
          await s.page.waitForTimeout(300); // the sheet's slide-in animation
          await check(looks[1], "/dashboard (navigation open)");
          await s.page.keyboard.press("Escape");
        }
      }
    } finally {
      await s.close();
    }
    assert.deepEqual(found, []);
  });
});

after(() => {
  const lines: string[] = [];
  const byRule = new Map<string, { impact: string; pages: number; nodes: number }>();
  for (const c of checked) {
    for (const v of c.violations) {
      const t = byRule.get(v.id) ?? { impact: v.impact, pages: 0, nodes: 0 };
      t.pages += 1;
      t.nodes += v.targets.length;
      byRule.set(v.id, t);
    }
    const ids = c.violations.map((v) => `${v.id}×${v.targets.length}`).join(", ") || "ok";
    lines.push(
      `  ${c.who.padEnd(9)} ${String(c.width).padStart(4)} ${c.scheme.padEnd(5)} ${c.path} → ${ids} (axe ${c.ms.join("+")} ms)`,
    );
  }
  const total = (impact: string) =>
    [...byRule.values()].filter((t) => t.impact === impact).reduce((n, t) => n + t.nodes, 0);
  const rules = [...byRule.entries()].map(
    ([id, t]) => `  ${t.impact.padEnd(8)} ${id}: ${t.nodes} elements on ${t.pages} pages`,
  );
  console.log(
    [
      `axe: ${checked.length} pages checked in ${Math.round((Date.now() - started) / 1000)} s;` +
        ` ${total("critical")} critical, ${total("serious")} serious, ${total("moderate")} moderate (h1/main) elements`,
      ...rules,
      ...lines,
    ].join("\n"),
  );
});
