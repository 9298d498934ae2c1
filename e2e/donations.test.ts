import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, signIn } from "./browser.ts";

interface ListedDonor {
  id: string;
  name: string;
  email: string | null;
  lastName: string | null;
  anonymized: boolean;
}

/** donors.list as the portal asks it, with the page's cookies (tRPC over GET, superjson). */
async function listDonors(page: Page, input: Record<string, unknown>) {
  return page.evaluate(async (i) => {
    const res = await fetch(`/api/trpc/donors.list?input=${encodeURIComponent(JSON.stringify({ json: i }))}`);
    const body = (await res.json()) as { result: { data: { json: { rows: ListedDonor[]; total: number } } } };
    return body.result.data.json;
  }, input);
}

/** Requests to donors.list sent since `since` (the page counts them in `seen`). */
function donorSearches(page: Page) {
  const seen: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("donors.list")) seen.push(r.url());
  });
  return seen;
}

test("an admin records an offline gift, refunds part of it, finds it from the dashboard's tile and exports the filtered list", async () => {
  for (const [viewport, amount, net] of [
    [{ width: 1280, height: 900 }, "123.45", "100.00"],
    [{ width: 360, height: 780 }, "136.45", "113.00"],
  ] as const) {
    const w = viewport.width;
    const s = await openBrowser({ viewport });
    try {
      await signIn(s.page, "admin@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      await go(s.page, "/donations");
      await s.page.getByRole("button", { name: "Record a donation" }).click();
      await s.page.getByLabel("Amount").fill(amount);
      await s.page.getByRole("dialog").getByRole("button", { name: "Record donation" }).click();
      await s.page.waitForURL(/\/donations\/[A-Za-z0-9]+$/);
      await s.page.getByRole("button", { name: "Mark partially refunded" }).click();
      await s.page.getByLabel(/Amount refunded now/).fill("23.45");
      await s.page.getByLabel("Reason").fill("Part of it was a duplicate");
      await s.page.getByRole("button", { name: "Confirm" }).click();
      await s.page.getByText("Partially refunded").first().waitFor();
      await s.page.getByText(`$${net}`).first().waitFor();
      // The timeline shows the refund with its reason.
      await s.page.getByText("“Part of it was a duplicate”").first().waitFor();
      await s.shot(`donation-detail-${w}`);
      // Edit: a message on the gift, then back on the detail page.
      await s.page.getByRole("link", { name: "Edit" }).click();
      await s.page.getByLabel("Message from the donor").fill(`Thank you (${w})`);
      await s.shot(`donation-edit-${w}`);
      await s.page.getByRole("button", { name: "Save" }).click();
      await s.page.waitForURL(/\/donations\/[A-Za-z0-9]+$/);
      await s.page.getByText(`“Thank you (${w})”`).waitFor();

      // The dashboard's Donations tile opens the list of exactly the gifts it counts.
      await go(s.page, "/dashboard?days=7");
      await s.page.getByText("Lapsed donors").waitFor();
      await s.shot(`dashboard-${w}`);
      await s.page
        .getByRole("link", { name: /^Donations/ })
        .filter({ hasText: "vs previous" })
        .first()
        .click();
      // Live gifts are the list's default (issue 53, M18): the link need not spell mode=live.
      await s.page.waitForURL(
        (u) => u.pathname === "/donations" && u.searchParams.has("status") && !u.searchParams.has("mode"),
      );
      await s.page.getByRole("heading", { name: "Donations", level: 1 }).waitFor();
      // A gift without a donor reads "Anonymous", as donors see it (core/labels.ts).
      await s.page.getByRole("link", { name: "Anonymous" }).first().waitFor();
      // Payment methods are spelled as their owners do (core/labels.ts), here in the list's filter.
      // On a phone the filters are in the "Filters" sheet.
      if (w < 640) await s.page.getByRole("button", { name: /^Filters/ }).click();
      const methods = await s.page.getByLabel("Payment method").locator("option").allInnerTexts();
      assert.ok(methods.includes("PayPal") && !methods.includes("Paypal"), methods.join(", "));
      if (w < 640) await s.page.getByRole("button", { name: "Show results" }).click();
      await s.page.getByText(`$${amount}`).first().waitFor();
      // The totals row is the tile's number: counted gifts only.
      await s.page.getByTestId("list-totals").waitFor();
      await s.shot(`donations-list-${w}`);

      // Export of the filtered list, with the refunded gift in it.
      const download = s.page.waitForEvent("download");
      await s.page.getByRole("button", { name: "Export CSV" }).click();
      const file = await download;
      assert.match(file.suggestedFilename(), /-donations-\d{8}-\d{4}\.csv$/);
      const csv = readFileSync((await file.path()) as string, "utf8");
      assert.match(csv, /^\uFEFFdonation_number,donation_id,donated_at,donated_at_local,status,mode,amount/);
      assert.match(
        csv,
        new RegExp(
          `partially_refunded,live,${amount.replace(".", "\\.")},0\\.00,0\\.00,${net.replace(".", "\\.")},23\\.45,USD`,
        ),
      );
      // Only counted gifts of the tile: nothing pending, failed or in test mode.
      assert.doesNotMatch(csv, /,(pending|failed|abandoned|cancelled|refunded|disputed),/);

      // The lapsed-donors tile opens its segment of the list.
      await go(s.page, "/dashboard?days=30");
      await s.page.getByRole("link", { name: /Lapsed donors/ }).click();
      await s.page.waitForURL((u) => u.searchParams.get("segment") === "lapsed");
      await s.page
        .getByText("Donations of donors who gave in the previous 12 months and not since.")
        .waitFor();

      // Platform admins see every organization at once.
      await go(s.page, "/dashboard?scope=all");
      await s.page.getByText("Every organization on the platform.").waitFor();
      await s.page.getByRole("button", { name: "Open" }).first().waitFor();
      await s.shot(`dashboard-all-organizations-${w}`);
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  }
});

test("a gift is recorded for a donor far past the first 100, found by typing and chosen with the arrow keys and Enter", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 } });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/donations");
    // The last donor by name: the old select offered the first 100 by name and nobody else.
    const first100 = await listDonors(s.page, { pageSize: 100, sort: "name", desc: false });
    assert.ok(first100.total > 200, `the demo seed has many donors (${first100.total})`);
    const last = (await listDonors(s.page, { pageSize: 25, sort: "name", desc: true })).rows.find(
      (d) => d.email && d.lastName && d.lastName.length >= 3 && !d.anonymized,
    );
    assert.ok(last, "a named donor with an e-mail near the end of the list");
    assert.ok(!first100.rows.some((d) => d.id === last.id), "the donor is not among the first 100");

    await s.page.getByRole("button", { name: "Record a donation" }).click();
    const dialog = s.page.getByRole("dialog", { name: "Record a donation" });
    const donor = dialog.getByRole("combobox", { name: "Donor" });
    await donor.getByText("Anonymous (no donor record)").waitFor();
    const searches = donorSearches(s.page);
    await donor.focus();
    await s.page.keyboard.press("Enter");
    const search = s.page.getByRole("combobox", { name: "Find a donor" });
    await search.waitFor();
    assert.ok(await search.evaluate((el) => el === document.activeElement), "the search has the focus");
    // One character: a hint and no request.
    await s.page.keyboard.type(last.lastName?.[0] ?? "");
    await s.page.getByText("Type 2 or more characters").waitFor();
    await s.page.waitForTimeout(400);
    assert.deepEqual(searches, [], "no search below 2 characters");
    // Nonsense: the empty state.
    await search.fill("zzqx-nobody");
    await s.page.getByText("No donor matches").waitFor();
    // The name: several donors may share it; the arrow keys walk to ours.
    await search.fill(last.name);
    const options = s.page.getByRole("option");
    await options.filter({ hasText: last.email ?? "" }).waitFor();
    assert.ok(searches.length <= 3, `debounced: ${searches.length} requests for three inputs`);
    const problems = await axeProblems(s.page);
    assert.deepEqual(problems, [], "axe with the list open");
    await s.shot("donor-combobox-open-1280");
    let found = false;
    for (let i = 0; i < 10 && !found; i++) {
      const active = s.page.locator('[role="option"][aria-selected="true"]');
      if ((await active.innerText()).includes(last.email ?? "")) found = true;
      else await s.page.keyboard.press("ArrowDown");
    }
    assert.ok(found, "the arrow keys reach the donor");
    await s.page.keyboard.press("Enter");
    await search.waitFor({ state: "detached" });
    await donor.getByText(last.name).waitFor();
    assert.ok(await donor.evaluate((el) => el === document.activeElement), "focus returns to the trigger");

    // Cleared, then chosen again: a gift may have no donor.
    await dialog.getByRole("button", { name: /^Clear donor/ }).click();
    await donor.getByText("Anonymous (no donor record)").waitFor();
    await donor.click();
    await search.fill(last.email ?? "");
    await s.page
      .getByRole("option")
      .filter({ hasText: last.email ?? "" })
      .filter({ hasNotText: "Create new donor" })
      .click();
    await donor.getByText(last.name).waitFor();

    await dialog.getByLabel("Amount").fill("42.00");
    await dialog.getByRole("button", { name: "Record donation" }).click();
    await s.page.waitForURL(/\/donations\/[A-Za-z0-9]+$/);
    await s.page.getByRole("link", { name: last.name }).first().waitFor();
    await s.page.getByText("$42.00").first().waitFor();
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("a new donor is created from the donor search, chosen, and the gift recorded for them (360 px, dark)", async () => {
  const s = await openBrowser({ viewport: { width: 360, height: 780 }, colorScheme: "dark" });
  try {
    await signIn(s.page, "organizer@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/donations");
    const stamp = Date.now().toString(36);
    const email = `inline-${stamp}@example.org`;
    await s.page.getByRole("button", { name: "Record a donation" }).click();
    const dialog = s.page.getByRole("dialog", { name: "Record a donation" });
    const donor = dialog.getByRole("combobox", { name: "Donor" });
    await donor.click();
    const search = s.page.getByRole("combobox", { name: "Find a donor" });
    await search.fill(`Ottoline Vrancken${stamp}`);
    const create = s.page.getByRole("option", { name: `Create new donor “Ottoline Vrancken${stamp}”` });
    await create.waitFor();
    await s.page.getByText("No donor matches").waitFor();
    // The create option is last: End, then Enter.
    await s.page.keyboard.press("End");
    assert.equal(await create.getAttribute("aria-selected"), "true");
    await s.page.keyboard.press("Enter");
    const form = s.page.getByRole("form", { name: "New donor" });
    assert.equal(await form.getByLabel("First name").inputValue(), "Ottoline");
    assert.equal(await form.getByLabel("Last name").inputValue(), `Vrancken${stamp}`);
    // The donor form's rules (core/donor.ts): the same refusals here.
    await form.getByLabel("E-mail").fill("not-an-address");
    await form.getByRole("button", { name: "Create and choose" }).click();
    await form.getByText("Enter a valid e-mail address").waitFor();
    await form.getByLabel("E-mail").fill(email);
    await s.shot("donor-combobox-create-360-dark");
    assert.deepEqual(await axeProblems(s.page), [], "axe on the inline form");
    await form.getByRole("button", { name: "Create and choose" }).click();
    await form.waitFor({ state: "detached" });
    await donor.getByText(`Ottoline Vrancken${stamp}`).waitFor();
    // The dialog stays open with the rest of the gift to fill in.
    await dialog.getByLabel("Amount").fill("15.00");
    await dialog.getByRole("button", { name: "Record donation" }).click();
    await s.page.waitForURL(/\/donations\/[A-Za-z0-9]+$/);
    // The gift names its new donor, whose profile has the e-mail given inline.
    const profile = await s.page
      .locator('a[href^="/donors/"]', { hasText: `Ottoline Vrancken${stamp}` })
      .first()
      .getAttribute("href");
    assert.match(String(profile), /^\/donors\/[A-Za-z0-9]+$/);
    await go(s.page, String(profile));
    await s.page.getByText(email).first().waitFor();

    // The same e-mail again: the existing donor is offered, not a second record.
    await go(s.page, "/donations");
    await s.page.getByRole("button", { name: "Record a donation" }).click();
    await donor.click();
    await search.fill("Someone Else");
    await s.page.getByRole("option", { name: "Create new donor “Someone Else”" }).click();
    await form.getByLabel("E-mail").fill(email.toUpperCase());
    await form.getByRole("button", { name: "Create and choose" }).click();
    await form.getByText("A donor with this e-mail already exists.").waitFor();
    await form.getByRole("button", { name: "Choose the existing donor" }).click();
    await donor.getByText(`Ottoline Vrancken${stamp}`).waitFor();
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
