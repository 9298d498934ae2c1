/**
 * Receipts (issue 25): an owner sets on /organization the signatory, the tax statement, the number
 * prefix (previewed as typed, refused with the rule when it breaks it), the language and automatic
 * sending, and finds them after a reload; then records a gift from a donor's page, sees its receipt
 * numbered with that prefix, refunds part of it and sees the receipt voided and a correction that
 * names it. An organizer is not offered the settings. At 1280 (light) and 360 (dark), axe on each.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, signIn } from "./browser.ts";

for (const [viewport, colorScheme] of [
  [{ width: 1280, height: 900 }, "light"],
  [{ width: 360, height: 780 }, "dark"],
] as const) {
  const w = viewport.width;
  test(`an owner sets what receipts say and how they go out (${w} px, ${colorScheme})`, async () => {
    const s = await openBrowser({ viewport, colorScheme });
    try {
      await signIn(s.page, "admin@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      await go(s.page, "/organization?section=receipts");
      const form = s.page.getByRole("form", { name: "Receipt settings" });
      await form.waitFor();
      await form.getByLabel("Signed by").fill(`Ada Treasurer ${w}`);
      await form.getByLabel("Signatory's title").fill("Treasurer");
      await form
        .getByLabel("Tax statement")
        .fill("No goods or services were provided in exchange for this gift.");
      // The rule, in the browser and from the same schema as the server.
      await form.getByLabel("Receipt number prefix").fill("HL 1");
      await form.getByRole("button", { name: "Save receipt settings" }).click();
      await form.getByText("Use letters, digits and - _ / . only").waitFor();
      await form.getByLabel("Receipt number prefix").fill(`HL${w}-`);
      await form.getByText(`HL${w}-000001, HL${w}-000002`).waitFor();
      await form.getByLabel("Language").selectOption("fr");
      const auto = form.getByRole("switch", { name: "Send receipts automatically" });
      if ((await auto.getAttribute("aria-checked")) !== "true") await auto.click();
      assert.deepEqual(await axeProblems(s.page), [], `axe on the receipts card at ${w}`);
      await form.getByRole("button", { name: "Save receipt settings" }).click();
      await s.page.getByText("Receipt settings saved").first().waitFor();
      await s.shot(`receipt-settings-${w}`);

      await s.page.reload();
      await s.page.waitForSelector('html[data-hydrated="true"]');
      const again = s.page.getByRole("form", { name: "Receipt settings" });
      assert.equal(await again.getByLabel("Signed by").inputValue(), `Ada Treasurer ${w}`);
      assert.equal(await again.getByLabel("Receipt number prefix").inputValue(), `HL${w}-`);
      assert.equal(await again.getByLabel("Language").inputValue(), "fr");
      assert.equal(
        await again.getByRole("switch", { name: "Send receipts automatically" }).getAttribute("aria-checked"),
        "true",
      );

      // A gift from a donor's page gets its receipt; a partial refund voids it and issues a correction.
      const donorId = await s.page.evaluate(async () => {
        const input = encodeURIComponent(JSON.stringify({ json: { pageSize: 25 } }));
        const res = await fetch(`/api/trpc/donors.list?input=${input}`);
        const body = (await res.json()) as {
          result: { data: { json: { rows: { id: string; anonymized: boolean; email: string | null }[] } } };
        };
        return body.result.data.json.rows.find((d) => !d.anonymized && d.email)?.id;
      });
      assert.ok(donorId, "a donor who can be receipted");
      await go(s.page, `/donors/${donorId}`);
      await s.page.getByRole("button", { name: "Record a donation" }).click();
      await s.page.getByRole("dialog").getByLabel("Amount").fill("80.00");
      await s.page.getByRole("dialog").getByRole("button", { name: "Record donation" }).click();
      await s.page.waitForURL(/\/donations\/[A-Za-z0-9]+$/);
      const receipts = s.page.getByRole("list", { name: "Receipts of this donation" });
      await receipts
        .getByText(new RegExp(`^HL${w}-\\d{6}$`))
        .first()
        .waitFor();
      await s.page.getByRole("button", { name: "Mark partially refunded" }).click();
      await s.page.getByLabel(/Amount refunded now/).fill("30.00");
      await s.page.getByLabel("Reason").fill("Part was a duplicate");
      await s.page.getByRole("button", { name: "Confirm" }).click();
      await receipts.getByText("Correction").waitFor();
      await receipts.getByText(/^replaces HL/).waitFor();
      await receipts.getByText("$50.00 deductible").waitFor();
      await receipts.getByText(/\(Part was a duplicate\)/).waitFor();
      assert.deepEqual(await axeProblems(s.page), [], `axe on the gift's receipts at ${w}`);
      await s.page.getByRole("list", { name: "Receipts of this donation" }).scrollIntoViewIfNeeded();
      await s.shot(`gift-receipts-${w}`);
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  });
}

test("an organizer is not offered the receipt settings", async () => {
  const s = await openBrowser({ viewport: { width: 360, height: 780 }, colorScheme: "dark" });
  try {
    await signIn(s.page, "organizer@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    await go(s.page, "/organization");
    await s.page.getByText("Only owners and admins of the organization can edit its profile.").waitFor();
    assert.equal(await s.page.getByRole("form", { name: "Receipt settings" }).count(), 0);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});
