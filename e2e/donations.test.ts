import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { go, openBrowser, signIn } from "./browser.ts";

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
      await s.page.waitForURL((u) => u.pathname === "/donations" && u.searchParams.get("mode") === "live");
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
      await s.page.getByText("Gifts of donors who gave in the previous 12 months and not since.").waitFor();

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
