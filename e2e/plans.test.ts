/**
 * Recurring plans through the UI (issue 24): the list filtered to active plans, a plan paused with
 * its reason and the dashboard's recurring tile counting one plan fewer; a plan entered by hand,
 * a gift recorded against it, its amount changed, then cancelled (the dialog's way out reads "Keep
 * plan"); a viewer reads plans but is offered no change. At 1280 (light) and 360 (dark), axe at
 * every step.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, type Session, signIn } from "./browser.ts";

interface ListedPlan {
  id: string;
  status: string;
  donorId: string;
  donorName: string | null;
  currency: string;
  source: string;
}

/** plans.list as the portal asks it, with the page's cookies (tRPC over GET, superjson). */
async function listPlans(page: Page, input: Record<string, unknown>) {
  return page.evaluate(async (i) => {
    const res = await fetch(`/api/trpc/plans.list?input=${encodeURIComponent(JSON.stringify({ json: i }))}`);
    const body = (await res.json()) as { result: { data: { json: { rows: ListedPlan[]; total: number } } } };
    return body.result.data.json;
  }, input);
}

async function noAxeProblems(s: Session, where: string) {
  assert.deepEqual(await axeProblems(s.page), [], `axe on ${where}`);
}

/** The recurring tile's "Active plans" figure on the dashboard. */
async function activePlansOnDashboard(page: Page) {
  await go(page, "/dashboard");
  const figure = page.locator("dt", { hasText: /^Active plans$/ }).locator("xpath=following-sibling::dd[1]");
  await figure.waitFor();
  return Number((await figure.innerText()).replace(/[^\d]/g, ""));
}

test("an admin pauses an active plan with a reason, and the dashboard counts one active plan fewer", async () => {
  for (const [viewport, colorScheme] of [
    [{ width: 1280, height: 900 }, "light"],
    [{ width: 360, height: 780 }, "dark"],
  ] as const) {
    const w = viewport.width;
    const s = await openBrowser({ viewport, colorScheme });
    try {
      await signIn(s.page, "admin@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      const before = await activePlansOnDashboard(s.page);
      assert.ok(before > 0, "the demo world has active plans");
      await s.page.getByText("Plans at risk").first().waitFor();
      await noAxeProblems(s, `dashboard ${w}`);
      await s.shot(`plans-dashboard-${w}`);

      // The list, narrowed to active plans from its URL, failing first by default.
      await go(s.page, '/recurring?status=["active"]');
      await s.page.getByRole("heading", { name: "Recurring plans", level: 1 }).waitFor();
      const listed = await listPlans(s.page, { status: ["active"], pageSize: 10 });
      const plan = listed.rows[0];
      assert.ok(plan, "an active plan to pause");
      // The page shows the same first plan as the API answers for the same filter.
      await s.page.locator(`a[href="/recurring/${plan.id}"]`).first().waitFor();
      // Month by month, asked for when unfolded: this month first, then the eleven before it.
      await s.page.getByText(/^Month by month/).click();
      const months = s.page.getByRole("table", { name: /^Plans month by month in / });
      await months.getByText("(so far)").waitFor();
      assert.equal(await months.locator("tbody tr").count(), 12);
      await noAxeProblems(s, `/recurring ${w}`);
      await s.shot(`plans-list-${w}`);

      await go(s.page, `/recurring/${plan.id}`);
      await s.page.getByRole("button", { name: "Pause" }).click();
      const dialog = s.page.getByRole("alertdialog");
      await noAxeProblems(s, `pause dialog ${w}`);
      // A pause needs its reason: the confirm stays off until one is typed.
      assert.equal(await dialog.getByRole("button", { name: "Pause plan" }).isDisabled(), true);
      await dialog.getByLabel("Reason").fill(`Donor asked for a break (${w})`);
      await dialog.getByRole("button", { name: "Pause plan" }).click();
      await s.page.getByText("Plan paused").first().waitFor();
      await s.page.getByRole("button", { name: "Resume" }).waitFor();
      // The timeline keeps who paused it and why.
      await s.page.getByText(`Donor asked for a break (${w})`).first().waitFor();
      await noAxeProblems(s, `plan page ${w}`);
      await s.shot(`plan-paused-${w}`);

      assert.equal(await activePlansOnDashboard(s.page), before - 1, "the paused plan left the count");
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  }
});

test("a plan entered by hand takes a gift, changes amount and is cancelled with a reason", async () => {
  const s = await openBrowser({ viewport: { width: 1280, height: 900 } });
  try {
    await signIn(s.page, "admin@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    // A donor of the admin's organization, read from one of its plans.
    const [some] = (await listPlans(s.page, { pageSize: 10 })).rows;
    assert.ok(some?.donorName, "a plan with a named donor");
    await go(s.page, `/donors/${some.donorId}`);
    await s.page.getByText("Recurring plans").first().waitFor();
    await noAxeProblems(s, "donor page");

    await go(s.page, "/recurring");
    // By keyboard: Enter opens the dialog (loaded on first use), Escape closes it back onto its button.
    const newPlan = s.page.getByRole("button", { name: "New plan" });
    await newPlan.focus();
    await s.page.keyboard.press("Enter");
    await s.page.getByRole("dialog", { name: "New recurring plan" }).waitFor();
    await s.page.keyboard.press("Escape");
    await s.page.getByRole("dialog").waitFor({ state: "detached" });
    assert.ok(await newPlan.evaluate((el) => el === document.activeElement), "focus back on New plan");
    await newPlan.click();
    const dialog = s.page.getByRole("dialog", { name: "New recurring plan" });
    await dialog.getByRole("combobox", { name: "Donor" }).click();
    await s.page.getByRole("combobox", { name: "Find a donor" }).fill(some.donorName);
    await s.page.getByRole("option").filter({ hasText: some.donorName }).first().click();
    await dialog.getByLabel("Amount").fill("12.50");
    await noAxeProblems(s, "new plan dialog");
    await dialog.getByRole("button", { name: "Create plan" }).click();
    await s.page.waitForURL(/\/recurring\/[A-Za-z0-9_-]+$/);
    await s.page.getByText("Entered by hand").first().waitFor();

    // A gift paid by hand against it: it shows among the plan's gifts.
    await s.page.getByRole("button", { name: "Record a donation" }).click();
    const gift = s.page.getByRole("dialog", { name: "Record a donation for this plan" });
    await gift.getByLabel(/^Amount/).fill("12.50");
    await gift.getByRole("button", { name: "Record donation" }).click();
    await s.page.getByRole("table", { name: "Donations of this plan" }).getByRole("link").first().waitFor();

    await s.page.getByRole("button", { name: "Change amount" }).click();
    const change = s.page.getByRole("alertdialog");
    await change.getByLabel(/^Amount per/).fill("15");
    await change.getByRole("button", { name: "Change amount" }).click();
    await s.page
      .getByText(/\$15\.00 \/ month/)
      .first()
      .waitFor();

    await s.page.getByRole("button", { name: "Cancel plan" }).click();
    const cancel = s.page.getByRole("alertdialog");
    await cancel.getByRole("button", { name: "Keep plan" }).waitFor();
    await cancel.getByLabel("Reason").fill("Moved abroad");
    await cancel.getByRole("button", { name: "Cancel plan" }).click();
    await s.page.getByText("Plan cancelled").first().waitFor();
    await s.page.getByText("Moved abroad").first().waitFor();
    assert.equal(await s.page.getByRole("button", { name: "Pause" }).count(), 0);
    await noAxeProblems(s, "cancelled plan");
    await s.shot("plan-cancelled-1280");
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("a viewer reads plans but is offered no change", async () => {
  const s = await openBrowser({ viewport: { width: 360, height: 780 }, colorScheme: "dark" });
  try {
    await signIn(s.page, "member@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/recurring");
    await s.page.getByRole("heading", { name: "Recurring plans", level: 1 }).waitFor();
    const [plan] = (await listPlans(s.page, { status: ["active"], pageSize: 10 })).rows;
    assert.ok(plan);
    assert.equal(await s.page.getByRole("button", { name: "New plan" }).count(), 0);
    assert.equal(await s.page.getByRole("button", { name: "Export CSV" }).count(), 0);
    // A card's e-mail is never broken mid-word (L9): it is one piece, on its own line if need be.
    const cards = s.page.locator('[data-slot="list-card"]');
    await cards.first().waitFor();
    const emails = await cards.evaluateAll((els) =>
      els.flatMap((card) =>
        [...card.querySelectorAll("span")]
          .filter((e) => e.childElementCount === 0 && /^\S+@\S+$/.test(e.textContent ?? ""))
          .map((e) => ({ email: e.textContent, lines: e.getClientRects().length })),
      ),
    );
    assert.ok(emails.length > 0, "the cards show e-mails");
    assert.deepEqual(
      emails.filter((e) => e.lines !== 1),
      [],
      "e-mails split across lines",
    );
    await go(s.page, `/recurring/${plan.id}`);
    await s.page.getByText("Timeline").first().waitFor();
    for (const name of ["Pause", "Resume", "Cancel plan", "Change amount", "Record a donation"])
      assert.equal(await s.page.getByRole("button", { name }).count(), 0, `${name} for a viewer`);
    await noAxeProblems(s, "plan page as a viewer");
    await s.shot("plan-viewer-360");
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
