import assert from "node:assert/strict";
import { test } from "node:test";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, signIn } from "./browser.ts";

/**
 * Every day in the portal is the organization's (Harbor Light, Los Angeles: scripts/seed-domain.mjs):
 * the presets end on its today, a range may end no later, and dates are written in its zone
 * (src/lib/time-zone.ts). The browsers below run elsewhere on purpose — the machine's zone, and
 * Kiritimati (UTC+14, a day ahead of Los Angeles for most of the day) — so a day taken from the
 * browser's clock, or a date the server wrote in UTC and the browser rewrote in its own zone (React
 * #418 on hydration), fails here at any hour.
 */
const ZONE = "America/Los_Angeles";
const FAR = "Pacific/Kiritimati";
/** The calendar day `d` falls on in `zone`, as a UTC midnight (so getUTC* read that day). */
const zoned = (d: Date, zone: string) => {
  const [y, m, day] = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(d).split("-").map(Number);
  return new Date(Date.UTC(y as number, (m as number) - 1, day));
};
/** YYYY-MM-DD of a zoned day. */
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
/** The picker's label of a one-day range: "1 Dec 2026", with no dash. */
const dayLabel = (d: Date) => new RegExp(`^(?!.* – ).*\\b${d.getUTCDate()} \\S+ ${d.getUTCFullYear()}`);
/** The calendar's name for a day button: "1 November 2026" (", today" may follow). */
const dayName = (d: Date) =>
  new RegExp(
    `^${d.getUTCDate()} ${d.toLocaleDateString("en-GB", { month: "long", timeZone: "UTC" })} ${d.getUTCFullYear()}`,
  );

test("the date-range picker filters /donations by a preset and a custom range, and the dashboard takes a custom range into its tiles' links", async () => {
  const now = zoned(new Date(), ZONE);
  const today = dayOf(now);
  const weekAgo = dayOf(new Date(now.getTime() - 6 * 86_400_000));
  // This month's 1st..today: on the calendar at both widths (two months end with this one; a phone
  // shows this one alone). On the 1st, one click picks the one day.
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = now;
  const oneDay = dayOf(first) === dayOf(last);
  const pick = async (page: import("playwright-core").Page) => {
    await page
      .getByRole("button", { name: dayName(first) })
      .last()
      .click();
    if (!oneDay)
      await page
        .getByRole("button", { name: dayName(last) })
        .last()
        .click();
  };
  for (const [viewport, colorScheme, timezoneId] of [
    [{ width: 1280, height: 900 }, "light", undefined],
    [{ width: 360, height: 780 }, "dark", FAR],
  ] as const) {
    const s = await openBrowser({ viewport, colorScheme, timezoneId });
    // On a phone the list's filters, the picker among them, are in the "Filters" sheet.
    const picker = async (name: RegExp) => {
      const button = s.page.getByRole("button", { name });
      if (viewport.width < 640 && !(await button.isVisible()))
        await s.page.getByRole("button", { name: /^Filters/ }).click();
      return button;
    };
    try {
      await signIn(s.page, "admin@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");

      // A preset: one click sets from/to in the URL and the button says the range.
      await go(s.page, "/donations");
      const total = s.page.getByTestId("list-totals");
      await total.waitFor();
      const before = await total.innerText();
      await (await picker(/^Donated/)).click();
      await s.page.getByRole("button", { name: "Last 7 days" }).click();
      await s.page.waitForURL(
        (u) => u.searchParams.get("from") === weekAgo && u.searchParams.get("to") === today,
      );
      await (await picker(/^Donated/)).filter({ hasText: /.+ – / }).waitFor();

      // A custom range with the keyboard-reachable calendar: first and last day, then Apply.
      await (await picker(/^Donated/)).click();
      await pick(s.page);
      assert.deepEqual(await axeProblems(s.page), [], `picker ${viewport.width}`);
      await s.page.getByRole("button", { name: "Apply" }).click();
      await s.page.waitForURL(
        (u) => u.searchParams.get("from") === dayOf(first) && u.searchParams.get("to") === dayOf(last),
      );
      // The list is the range's: its totals row changed (or the list is empty).
      await s.page.waitForFunction((b) => {
        const t = document.querySelector('[data-testid="list-totals"]');
        return (t && t.textContent !== b) || document.body.innerText.includes("No donations match");
      }, before);
      // Clear opens the range again.
      await (await picker(/^Donated/)).click();
      await s.page.getByRole("button", { name: "Clear", exact: true }).click();
      await s.page.waitForURL((u) => !u.searchParams.has("from") && !u.searchParams.has("to"));

      // The dashboard: a custom range beside the presets; the tiles' links carry it to /donations.
      await go(s.page, "/dashboard?days=30");
      await s.page.getByText("Lapsed donors").waitFor();
      await s.page.getByRole("button", { name: /^Custom/ }).click();
      await pick(s.page);
      await s.page.getByRole("button", { name: "Apply" }).click();
      await s.page.waitForURL((u) => u.searchParams.get("from") === dayOf(first));
      await s.page.waitForFunction(
        ([f, t]) =>
          [...document.querySelectorAll("a")].some((a) => {
            const h = a.getAttribute("href") ?? "";
            return h.startsWith("/donations?") && h.includes(`from=${f}`) && h.includes(`to=${t}`);
          }),
        [dayOf(first), dayOf(last)],
      );
      assert.deepEqual(await axeProblems(s.page), [], `dashboard ${viewport.width}`);
      // A tile's link (not the sidebar's "Donations"): the one that carries the range.
      await s.page
        .locator(`main a[href^="/donations?"][href*="from=${dayOf(first)}"][href*="to=${dayOf(last)}"]`)
        .first()
        .click();
      await s.page.waitForURL(
        (u) =>
          u.pathname === "/donations" &&
          u.searchParams.get("from") === dayOf(first) &&
          u.searchParams.get("to") === dayOf(last),
      );
      // On the 1st the range is the one day, named without a dash: "1 Dec 2026".
      await (await picker(/^Donated/)).filter({ hasText: oneDay ? dayLabel(first) : /.+ – / }).waitFor();
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  }
});

test("a browser a day ahead of the organization: every date is the organization's day, on the server's render and after hydration, and a one-day filter lists only that day", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 }, timezoneId: FAR });
  const inOrg = (d: Date) =>
    new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(d);
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    // The most recent organization day with gifts, within a month (the seed gives most days some).
    let day: Date | null = null;
    let shown: string[] = [];
    for (let back = 1; back <= 30 && !day; back++) {
      const d = new Date(zoned(new Date(), ZONE).getTime() - back * 86_400_000);
      // A full page load: the dates below are the server's render, then hydrated in Kiritimati.
      await go(s.page, `/donations?from=${dayOf(d)}&to=${dayOf(d)}&pageSize=100`);
      await s.page.getByTestId("list-totals").or(s.page.getByText("No donations match")).first().waitFor();
      const dateColumn = await s.page.evaluate(() => {
        const heads = [...document.querySelectorAll("thead th")].map((th) => th.textContent?.trim() ?? "");
        const i = heads.findIndex((h) => h.startsWith("Date"));
        return [...document.querySelectorAll("tbody tr")]
          .map((tr) => tr.querySelectorAll("td")[i]?.textContent?.trim() ?? "")
          .filter(Boolean);
      });
      if (dateColumn.length) {
        day = d;
        shown = dateColumn;
      }
    }
    assert.ok(day, "no gifts in the last 30 days of the seed");
    // Every row of a one-day filter is dated that day: the list and its filter count the same days.
    assert.deepEqual([...new Set(shown)], [inOrg(day)]);

    // A gift's moment names its zone: the organization's, not the browser's.
    await s.page.locator("tbody tr").first().click();
    await s.page.waitForURL((u) => /^\/donations\/[^/]+$/.test(u.pathname));
    await s.page.reload();
    await s.page
      .getByText(/Received/)
      .first()
      .waitFor();
    await s.page
      .getByText(/, \d{1,2}:\d{2} [AP]M P[SD]T/)
      .first()
      .waitFor();

    // Pages full of dates, each loaded whole so the server renders them and the browser hydrates.
    for (const path of ["/dashboard", "/donors?sort=lastGift&desc=true", "/campaigns", "/donations"]) {
      await go(s.page, path);
      await s.page.locator("main h1").waitFor();
      await s.page.waitForLoadState("networkidle");
    }
    assert.deepEqual(s.errors, [], "hydration errors (React #418) or failed requests");
  } finally {
    await s.close();
  }
});
