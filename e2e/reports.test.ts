/**
 * The fundraising reports (issue 27) in Chromium: an owner and a viewer open /reports from the
 * navigation and go through the six reports with the keyboard alone (the tabs' arrow keys), at
 * 1280 px light and 360 px dark; axe finds nothing critical or serious on any of them, and every
 * report is screenshotted. The owner downloads a report's CSV and the LYBUNT list's (built from
 * its pages, one line per donor the list counts) with the keyboard; a viewer reads every report
 * and is offered no download. The campaigns compared are chosen in the picker.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { axeProblems } from "./a11y.ts";
import { openBrowser, type Session, signIn } from "./browser.ts";

const REPORTS = [
  ["Giving by year", "Giving by year"],
  ["Retention", "Retention and recapture"],
  ["Cohorts", "Cohorts"],
  ["Giving pyramid", "Giving pyramid"],
  ["Lapsed donors", "Lapsed donors"],
  ["Campaigns", "Campaigns side by side"],
] as const;

/** Nothing loading: no skeleton, no busy region. */
async function settled(page: Page) {
  await page.waitForFunction(
    () => !document.querySelector('[data-slot="skeleton"], [aria-busy="true"]'),
    undefined,
    { timeout: 15_000, polling: 100 },
  );
}

/**
 * The whole report in one picture: the portal's main column scrolls inside the window, so the
 * window is made as tall as the column for the shot (the charts measure their box again first).
 */
async function fullShot(s: Session, name: string) {
  const size = s.page.viewportSize() ?? { width: 1280, height: 900 };
  const height = await s.page.evaluate(() => {
    const main = document.querySelector("main");
    return main ? main.getBoundingClientRect().top + main.scrollHeight : document.body.scrollHeight;
  });
  await s.page.setViewportSize({ width: size.width, height: Math.max(size.height, Math.ceil(height) + 24) });
  await s.page.waitForTimeout(300);
  await s.shot(name);
  await s.page.setViewportSize(size);
  await s.page.waitForTimeout(100);
}

/** Presses Enter on a focused control and answers the file it downloads. */
async function downloadWithEnter(page: Page) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, "utf8") };
}

for (const [who, email] of [
  ["owner", "admin@almoner.test"],
  ["viewer", "member@almoner.test"],
] as const) {
  for (const [viewport, colorScheme] of [
    [{ width: 1280, height: 900 }, "light"],
    [{ width: 360, height: 780 }, "dark"],
  ] as const) {
    const w = viewport.width;
    test(`${who} reads the six reports by keyboard (${w} px, ${colorScheme})`, async () => {
      const s = await openBrowser({ viewport, colorScheme });
      try {
        await signIn(s.page, email);
        await s.page.waitForURL((u) => u.pathname === "/dashboard");
        // Reports is in the navigation for every role (the phone's is in the menu sheet).
        if (w < 768) await s.page.getByRole("button", { name: "Open navigation" }).click();
        await s.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
        await s.page.waitForURL((u) => u.pathname === "/reports");
        await s.page.waitForSelector('html[data-hydrated="true"]');
        await s.page.getByRole("heading", { level: 1, name: "Reports" }).waitFor();

        // The keyboard alone: focus the chosen tab, then the arrow keys move from report to report.
        await s.page.getByRole("tab", { name: "Giving by year" }).focus();
        for (const [i, [tab, heading]] of REPORTS.entries()) {
          if (i > 0) await s.page.keyboard.press("ArrowRight");
          // Chosen by the arrow key (the URL follows), with the focus still on it for the next press.
          await s.page.getByRole("tab", { name: tab, selected: true }).waitFor();
          assert.equal(
            await s.page.evaluate(() => document.activeElement?.textContent),
            tab,
            `the focus on ${tab}`,
          );
          await s.page.getByRole("heading", { level: 2, name: heading }).waitFor();
          await settled(s.page);
          assert.deepEqual(await axeProblems(s.page), [], `axe on ${tab} at ${w} as ${who}`);
          await fullShot(s, `reports-${i + 1}-${tab.toLowerCase().replace(/\W+/g, "-")}-${w}-${who}`);
          const downloads = await s.page.getByRole("button", { name: "Download CSV" }).count();
          assert.equal(downloads > 0, who === "owner", `${tab}: CSV offered to ${who}`);
        }

        // Campaigns side by side: it opens on the three that raised most (issue 53, L2), then
        // others are chosen in the picker.
        await s.page.getByText("The campaigns that raised most in USD", { exact: false }).waitFor();
        await s.page.getByRole("region", { name: "Campaigns side by side, table" }).waitFor();
        await s.page.getByRole("button", { name: /^Campaigns \(2–4\)/ }).click();
        // The picker's list, searched on the server; it stays open while campaigns are changed.
        const options = s.page.getByRole("dialog").getByRole("option");
        await options.nth(1).waitFor();
        const first = await options.nth(0).getAttribute("aria-checked");
        await options.nth(0).click();
        assert.notEqual(
          await options.nth(0).getAttribute("aria-checked"),
          first,
          "a click toggles the first",
        );
        await s.page.keyboard.press("Escape");
        await s.page.getByRole("region", { name: "Campaigns side by side, table" }).waitFor();
        await s.page
          .getByRole("img", { name: /^Raised so far by days since each campaign started/ })
          .waitFor();
        await settled(s.page);
        assert.deepEqual(await axeProblems(s.page), [], `axe on the campaigns compared at ${w} as ${who}`);
        await fullShot(s, `reports-6-campaigns-compared-${w}-${who}`);
        await s.page
          .getByRole("radio", { name: "Calendar" })
          .or(s.page.getByRole("button", { name: "Calendar" }))
          .first()
          .click();
        await s.page.getByRole("img", { name: /^Raised so far by day,/ }).waitFor();
        await fullShot(s, `reports-6-campaigns-calendar-${w}-${who}`);

        if (who === "owner") {
          // A report's CSV with the keyboard: the giving by year as shown, in the organization's currency.
          await s.page.getByRole("tab", { name: "Campaigns" }).focus();
          await s.page.keyboard.press("Home");
          await s.page.getByRole("heading", { level: 2, name: "Giving by year" }).waitFor();
          await settled(s.page);
          await s.page.getByRole("button", { name: "Download CSV" }).focus();
          const giving = await downloadWithEnter(s.page);
          assert.match(giving.name, /^harbor-light[\w-]*-report-giving-by-year-usd-\d{8}-\d{4}\.csv$/);
          const [header, ...lines] = giving.text.trimEnd().split("\r\n");
          assert.equal(
            header,
            "\uFEFFyear,raised,currency,gifts,donors,new_donors,average_gift,change_vs_previous_year_percent",
          );
          const shown = await s.page
            .getByRole("region", { name: "Giving by year, table" })
            .locator("tbody tr")
            .count();
          assert.ok(shown > 0);
          assert.equal(lines.length, shown, "the years on screen, one line each");

          // The gifts' own filters, as /donations has them: one-time gifts only, by keyboard (the
          // phone's filters are in the lists' sheet, seen in the accessibility pass).
          if (w >= 768) {
            const table = s.page.getByRole("region", { name: "Giving by year, table" }).locator("tbody");
            const allGifts = await table.textContent();
            await s.page.getByLabel("Frequency").focus();
            await s.page.keyboard.press("ArrowDown");
            await s.page.waitForURL((u) => u.searchParams.get("frequency") === "one_time");
            await s.page.getByRole("button", { name: "Clear 1 filter" }).waitFor();
            await settled(s.page);
            assert.notEqual(await table.textContent(), allGifts, "one-time gifts only");
            // The report says what it counts, in the filter bar's words, beside its figures.
            const filtered = s.page.getByText("Filtered: Frequency: One time.", { exact: true });
            await filtered.waitFor();
            // Its CSV's name says it is narrowed, beside the same report's unfiltered file.
            await s.page.getByRole("button", { name: "Download CSV" }).focus();
            const narrowed = await downloadWithEnter(s.page);
            assert.match(narrowed.name, /-report-giving-by-year-usd-filtered-\d{8}-\d{4}\.csv$/);
            await s.page.getByRole("button", { name: "Clear 1 filter" }).click();
            await s.page.waitForURL((u) => !u.searchParams.has("frequency"));
            await filtered.waitFor({ state: "detached" });
            // The defaults (the giving view, calendar years, page 1, …) are never spelled in it.
            const spelled = [...new URL(s.page.url()).searchParams.keys()];
            for (const key of ["view", "basis", "kind", "page", "pageSize", "desc"])
              assert.ok(!spelled.includes(key), `${key} in ${s.page.url()}`);
            await settled(s.page);
          }

          // LYBUNT's CSV: every donor the list counts, whatever the page shows.
          await s.page.getByRole("tab", { name: "Lapsed donors" }).click();
          await s.page.getByRole("heading", { level: 2, name: "Lapsed donors" }).waitFor();
          await settled(s.page);
          const summary =
            (await s.page.getByText(/ donors? gave .* and nothing yet in /).textContent()) ?? "";
          const total = Number(summary.replace(/,/g, "").match(/^(\d+)/)?.[1]);
          assert.ok(total > 0, `a LYBUNT list to export (${summary})`);
          await s.page.getByRole("button", { name: "Download CSV" }).focus();
          const lybunt = await downloadWithEnter(s.page);
          assert.match(lybunt.name, /-report-lybunt-usd-\d{8}-\d{4}\.csv$/);
          const rows = lybunt.text.trimEnd().split("\r\n");
          assert.equal(rows[0]?.replace("\uFEFF", "").split(",")[0], "donor_id");
          // An appeal needs to know whom it may reach: the consents come with the e-mail.
          assert.match(rows[0] ?? "", /,email_opt_in,phone_opt_in,mail_opt_in$/);
          assert.equal(rows.length - 1, total, "one line per LYBUNT donor");
          await s.page
            .getByText(/^Exported [\d,]+ donors?$/)
            .first()
            .waitFor();
        }
        assert.deepEqual(s.errors, []);
      } finally {
        await s.close();
      }
    });
  }
}

test("a hand-edited /reports address falls back to the defaults, never an error page", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 } });
  try {
    await signIn(s.page, "member@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    for (const search of [
      "?view=nope&basis=lunar&fromYear=abc&toYear=1800&currency=XYZ&page=-1&pageSize=7",
      `?view=campaigns&compare=${encodeURIComponent(JSON.stringify(["a", "b", "c", "d", "e"]))}&from=2026-02-30&align=sideways`,
      "?view=lapsed&kind=%00&tierId=&q=%E2%80%AE",
      `?view=pyramid&frequency=weekly&source=pigeon&paymentMethod=${"x".repeat(40)}`,
      // Years in the wrong order: the server refuses them (400) and the report says why.
      "?view=giving&fromYear=2026&toYear=2024",
    ]) {
      const res = await s.page.goto(`/reports${search}`);
      assert.ok((res?.status() ?? 0) < 500, `${search}: ${res?.status()}`);
      await s.page.waitForSelector('html[data-hydrated="true"]');
      await s.page.getByRole("heading", { level: 1, name: "Reports" }).waitFor();
      assert.equal(await s.page.getByText("Something went wrong!").count(), 0, search);
    }
    await s.page.getByRole("alert").getByText("The last year is before the first year").waitFor();
    // Only the refused request of the last address, as a 400: nothing else failed.
    assert.deepEqual(
      s.errors.filter((e) => !/^400 GET .*reports\.yearly/.test(e) && !/status of 400/.test(e)),
      [],
    );
  } finally {
    await s.close();
  }
});
