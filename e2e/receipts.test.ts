/**
 * Receipt settings on /organization (issue 25): an owner sets the signatory, the tax statement, the
 * number prefix (previewed as typed, refused with the rule when it breaks it), the language and
 * automatic sending, and finds them after a reload; an organizer is not offered the card. At 1280
 * (light) and 360 (dark), axe on each.
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
      await go(s.page, "/organization");
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
      await form.scrollIntoViewIfNeeded();
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
