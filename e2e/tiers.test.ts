import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { go, openBrowser, signIn } from "./browser.ts";

/** The Donors column of /donor-tiers: each tier's count, the "No tier" row's, and the total. */
async function counts(page: Page) {
  await page.getByTestId("tiers-total").waitFor();
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>("tbody tr[data-tier]")].map((tr) => [
      tr.dataset.tier ?? "",
      Number(tr.querySelector<HTMLElement>("[data-count]")?.dataset.count),
    ]);
    const total = Number(document.querySelector<HTMLElement>('[data-testid="tiers-total"]')?.dataset.count);
    return { rows: Object.fromEntries(rows) as Record<string, number>, total };
  });
}

/** One row's count (0 when the tier is not there). */
const of = (c: { rows: Record<string, number> }, tier: string) => c.rows[tier] ?? 0;

/** Every donor is counted once: the tiers and "No tier" add up to the total. */
async function expectAddsUp(page: Page) {
  const c = await counts(page);
  assert.equal(
    Object.values(c.rows).reduce((s, n) => s + n, 0),
    c.total,
    `counts ${JSON.stringify(c.rows)} should add up to ${c.total}`,
  );
  assert.ok(c.total > 0);
  return c;
}

/** The delete dialog: the choice is a labelled radio group, focused first; Escape gives focus back. */
async function deleteTier(page: Page, name: string, choice: string) {
  const trigger = page.getByRole("button", { name: `Delete ${name}` });
  await trigger.click();
  const dialog = page.getByRole("alertdialog");
  await dialog.getByRole("group", { name: "What happens to its donors" }).waitFor();
  const first = dialog.getByRole("radio", { name: "Re-evaluate them against the remaining tiers" });
  assert.equal(await first.isChecked(), true);
  assert.equal(await first.evaluate((el) => el === document.activeElement), true);
  await dialog.getByRole("radio", { name: choice }).check();
  await dialog.getByRole("button", { name: "Delete tier" }).click();
  await dialog.waitFor({ state: "hidden" });
}

test("donor tiers: edit a tier, add a top tier, delete through the dialog; the counts add up", async () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 360, height: 780 },
  ]) {
    const s = await openBrowser({ viewport });
    const w = viewport.width;
    try {
      await signIn(s.page, "admin@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      await go(s.page, "/donor-tiers");
      const start = await expectAddsUp(s.page);

      if (w === 1280) {
        // A tier's count opens the donors list filtered by that tier, with as many rows.
        await s.page.getByRole("link", { name: / donors in Major donor$/ }).click();
        await s.page.waitForURL((u) => u.pathname === "/donors" && !!u.searchParams.get("tierId"));
        await s.page
          .getByText(`${of(start, "Major donor").toLocaleString("en-US")} rows`, { exact: true })
          .waitFor();
        assert.equal(
          await s.page.getByLabel("Tier", { exact: true }).inputValue(),
          new URL(s.page.url()).searchParams.get("tierId"),
        );
        await go(s.page, "/donor-tiers");
        await expectAddsUp(s.page);

        // Cancel gives focus back to the button that opened the dialog, and deletes nothing.
        await s.page.getByRole("button", { name: "Delete Major donor" }).click();
        await s.page.getByRole("alertdialog").getByRole("radio").first().waitFor();
        await s.page.keyboard.press("Escape");
        await s.page.getByRole("alertdialog").waitFor({ state: "hidden" });
        assert.equal(
          await s.page
            .getByRole("button", { name: "Delete Major donor" })
            .evaluate((el) => el === document.activeElement),
          true,
        );

        // Room for a top tier: Major donor stops at 20 000, then Patron starts there.
        await s.page.getByRole("button", { name: "Edit Major donor" }).click();
        const edit = s.page.getByRole("dialog");
        await edit.getByLabel("Below (empty: no limit)").fill("20000");
        await s.shot(`tiers-edit-${w}`);
        await edit.getByRole("button", { name: "Save tier" }).click();
        await s.page.getByText('Tier "Major donor" saved; donors re-evaluated').waitFor();
        await s.page
          .locator("tr", { hasText: "Major donor" })
          .getByText("$20,000.00", { exact: true })
          .waitFor();
        await expectAddsUp(s.page);
        await s.page.getByText(/No tier covers \$20,000\.00 and above/).waitFor();

        const add = s.page.getByRole("form", { name: "Add a tier" });
        await add.getByLabel("Name").fill("Patron");
        await add.getByLabel("From (USD)").fill("20000");
        await add.getByRole("button", { name: "Add" }).click();
        await s.page.getByText('Tier "Patron" added; donors re-evaluated').waitFor();
        await s.page.locator('tr[data-tier="Patron"]').waitFor();
        const withPatron = await expectAddsUp(s.page);
        assert.equal(withPatron.total, start.total);

        // Patron's donors move down to Major donor, which covers its range again.
        await deleteTier(s.page, "Patron", "Move them to Major donor");
        await s.page.getByText(/Tier deleted; [\d,]+ donors? moved to Major donor/).waitFor();
        await s.page.locator('tr[data-tier="Patron"]').waitFor({ state: "detached" });
        await s.page.locator("tr", { hasText: "Major donor" }).getByText("no limit").waitFor();
        assert.deepEqual((await expectAddsUp(s.page)).rows, start.rows);

        // Major donor goes; its donors are re-evaluated, and the demo's donors locked to it by hand
        // are unlocked and take the tier their giving fits (they used to be left with none).
        await deleteTier(s.page, "Major donor", "Re-evaluate them against the remaining tiers");
        await s.page
          .getByText(
            /Tier deleted; [\d,]+ donors? re-evaluated against the remaining tiers \([\d,]+ unlocked\)/,
          )
          .waitFor();
        await s.page.locator('tr[data-tier="Major donor"]').waitFor({ state: "detached" });
        const after = await expectAddsUp(s.page);
        assert.equal(after.total, start.total);
        assert.equal(
          of(after, "Friend") + of(after, "Supporter") + of(after, "No tier"),
          of(start, "Friend") + of(start, "Supporter") + of(start, "No tier") + of(start, "Major donor"),
        );
      } else {
        // Put a top tier back, rename it, then fold it into Supporter.
        const add = s.page.getByRole("form", { name: "Add a tier" });
        await add.getByLabel("Name").fill("Major");
        await add.getByLabel("From (USD)").fill("5000");
        await add.getByRole("button", { name: "Add" }).click();
        await s.page.locator('tr[data-tier="Major"]').waitFor();
        await expectAddsUp(s.page);
        await s.page.getByRole("button", { name: "Edit Major" }).click();
        await s.page.getByRole("dialog").getByLabel("Name").fill("Leaders");
        await s.page.getByRole("dialog").getByRole("button", { name: "Save tier" }).click();
        await s.page.locator('tr[data-tier="Leaders"]').waitFor();
        const before = await expectAddsUp(s.page);
        await deleteTier(s.page, "Leaders", "Move them to Supporter");
        await s.page.getByText(/Tier deleted; [\d,]+ donors? moved to Supporter/).waitFor();
        await s.page.locator('tr[data-tier="Leaders"]').waitFor({ state: "detached" });
        const after = await expectAddsUp(s.page);
        assert.equal(of(after, "Supporter"), of(before, "Supporter") + of(before, "Leaders"));
      }
      await s.shot(`tiers-${w}`);
      assert.deepEqual(s.errors, []);
    } catch (e) {
      console.log("FAILED AT", s.page.url(), s.errors);
      await s.shot(`tiers-failure-${w}`);
      throw e;
    } finally {
      await s.close();
    }
  }
});
