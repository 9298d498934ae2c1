import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { go, openBrowser, signIn } from "./browser.ts";

test("donors: create, duplicate warning, bulk tag, a note, merge two donors, filters and export", async () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 360, height: 780 },
  ]) {
    const s = await openBrowser({ viewport });
    const w = viewport.width;
    const suffix = `${w}${Date.now().toString(36)}`;
    const last = `Tester${suffix}`;
    const first = `edie-${suffix}@example.org`;
    const second = `edith-${suffix}@example.org`;
    try {
      await signIn(s.page, "admin@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");

      const onDonorPage = (u: URL) =>
        /^\/donors\/[A-Za-z0-9]+$/.test(u.pathname) && u.pathname !== "/donors/create";
      // Create a donor, then the same e-mail again: the duplicate warning links to the first.
      const create = async (firstName: string, email: string) => {
        await go(s.page, "/donors/create");
        await s.page.getByLabel("First name").fill(firstName);
        await s.page.getByLabel("Last name").fill(last);
        await s.page.getByLabel("E-mail", { exact: true }).fill(email);
        await s.page.getByRole("button", { name: "Create donor" }).click();
      };
      await create("Edie", first);
      await s.page.waitForURL(onDonorPage);
      const firstId = new URL(s.page.url()).pathname.split("/").pop();
      await create("Edie", first.toUpperCase());
      await s.page.getByText("A donor with this e-mail already exists.").waitFor();
      await s.shot(`donor-duplicate-${w}`);
      await s.page.getByRole("link", { name: "Open the existing donor" }).click();
      await s.page.waitForURL((u) => u.pathname === `/donors/${firstId}`);
      await create("Edith", second);
      await s.page.waitForURL(onDonorPage);
      const secondId = new URL(s.page.url()).pathname.split("/").pop();
      assert.notEqual(secondId, firstId);

      // Both found by search, tagged in one bulk action.
      await go(s.page, `/donors?q=${encodeURIComponent(last.toLowerCase())}`);
      await s.page.getByRole("checkbox", { name: "Select row" }).nth(1).waitFor();
      await s.page.getByRole("checkbox", { name: "Select all rows on this page" }).check();
      await s.page.getByLabel("Tag to apply").selectOption({ label: "Board" });
      await s.page.getByRole("button", { name: "Add tag" }).click();
      // One summary for the run (core/bulk.ts bulkSummary).
      await s.page.getByText("2 tagged Board").waitFor();
      // Table rows, or cards on a phone.
      await s.page.locator("tbody tr, [data-slot=list-card]").filter({ hasText: "Board" }).nth(1).waitFor();
      await s.shot(`donors-list-tagged-${w}`);

      // A pinned note shared with the donor, on the record that will be merged away.
      await go(s.page, `/donors/${firstId}`);
      await s.page.getByLabel("New note").fill(`Met at the gala ${suffix}`);
      await s.page.getByLabel("Visibility", { exact: true }).selectOption("shared");
      await s.page.getByLabel("Pin").check();
      await s.page.getByRole("button", { name: "Add note" }).click();
      const note = s.page.locator("li", { hasText: `Met at the gala ${suffix}` });
      await note.getByText("Shared with donor").waitFor();
      await note.getByText("Pinned").waitFor();

      // Merge into the second donor: the dry run shows what moves, then the old id resolves.
      await s.page.getByRole("button", { name: "Merge", exact: true }).click();
      const dialog = s.page.getByRole("dialog");
      await dialog.getByLabel("Find the donor to keep").fill(second);
      await dialog.getByRole("button", { name: new RegExp(second) }).click();
      const preview = dialog.getByRole("status", { name: "Merge preview" });
      await preview.getByText("1 note moves").waitFor();
      // Two records with one surname: each is told by its e-mail (issue 53, M8), and the second
      // address is kept, not dropped.
      await preview.getByText(new RegExp(`^${first} · donor since`)).waitFor();
      await preview.getByText(`${first} is kept as another e-mail`, { exact: false }).waitFor();
      await s.shot(`donor-merge-preview-${w}`);
      await dialog.getByRole("button", { name: "Merge", exact: true }).click();
      await s.page.waitForURL((u) => u.pathname === `/donors/${secondId}`);
      await s.page.getByText(`Met at the gala ${suffix}`).waitFor();
      await s.page.getByText("Other e-mails").waitFor();
      await s.page.getByText(first, { exact: true }).waitFor();
      await go(s.page, `/donors/${firstId}`);
      await s.page.waitForURL((u) => u.pathname === `/donors/${secondId}`);
      await s.page.getByRole("heading", { name: `Edith ${last}` }).waitFor();
      await s.shot(`donor-merged-${w}`);

      // Filters live in the URL.
      await go(s.page, "/donors");
      // The default order, newest first, is shown on its column (issue 53, L13).
      if (w > 1000)
        assert.equal(
          await s.page.getByRole("columnheader", { name: "Added" }).getAttribute("aria-sort"),
          "descending",
        );
      // On a phone every filter is in the "Filters" sheet; "More filters" is inside it.
      if (w < 640) await s.page.getByRole("button", { name: "Filters", exact: true }).click();
      await s.page.getByRole("button", { name: /^More filters/ }).click();
      await s.page.getByLabel("Type", { exact: true }).selectOption("organization");
      await s.page.getByRole("button", { name: "Apply filters" }).click();
      await s.page.waitForURL((u) => /organization/.test(u.searchParams.get("type") ?? ""));
      await s.page.getByRole("button", { name: "More filters (1)" }).waitFor();
      if (w < 640) {
        await s.page.getByRole("button", { name: "Show results" }).click();
        await s.page.getByRole("button", { name: "Filters (1)" }).waitFor();
      }
      await s.shot(`donors-filtered-${w}`);

      if (w > 1000) {
        // The export follows the filters and reports progress.
        const download = s.page.waitForEvent("download");
        await s.page.getByRole("button", { name: "Export CSV" }).click();
        const file = await download;
        // One name pattern for every export (core/csv.ts exportFileName).
        assert.match(file.suggestedFilename(), /^[a-z0-9-]+-donors-\d{8}-\d{4}\.csv$/);
        const csv = readFileSync(await file.path(), "utf8");
        assert.match(csv, /^\uFEFFdonor_id,name,type,first_name,last_name,company,email/);
        const rows = csv.trim().split("\r\n").slice(1);
        assert.ok(rows.length > 0);
        assert.ok(rows.every((r) => r.split(",")[2] === "organization"));
      }
      assert.deepEqual(s.errors, []);
    } catch (e) {
      console.log("FAILED AT", s.page.url(), s.errors);
      await s.shot(`donors-failure-${w}`);
      throw e;
    } finally {
      await s.close();
    }
  }
});

test("donors: manual tier lock, delete refused for a giver leads to anonymize by typing the e-mail, tier distribution", async () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 360, height: 780 },
  ]) {
    const s = await openBrowser({ viewport });
    const w = viewport.width;
    const email = `gone-${w}${Date.now().toString(36)}@example.org`;
    try {
      await signIn(s.page, "admin@almoner.test");
      await s.page.waitForURL((u) => u.pathname === "/dashboard");
      await go(s.page, "/donors/create");
      await s.page.getByLabel("First name").fill("Gale");
      await s.page.getByLabel("Last name").fill("Gone");
      await s.page.getByLabel("E-mail", { exact: true }).fill(email);
      await s.page.getByRole("button", { name: "Create donor" }).click();
      await s.page.waitForURL(
        (u) => /^\/donors\/[A-Za-z0-9]+$/.test(u.pathname) && u.pathname !== "/donors/create",
      );
      const donorPath = new URL(s.page.url()).pathname;

      // Lock the tier by hand, then hand it back to the ladder.
      await s.page.getByLabel("Tier to lock").selectOption({ label: "Major donor" });
      await s.page.getByRole("button", { name: "Lock tier" }).click();
      await s.page.getByText("Locked by hand").waitFor();
      await s.page.getByText("Previous tier: Friend").waitFor();
      await s.shot(`donor-tier-locked-${w}`);
      await s.page.getByRole("button", { name: "Unlock tier" }).click();
      await s.page.getByText("Assigned by giving").waitFor();

      // A completed gift makes delete impossible; the refusal offers anonymize.
      await s.page.getByRole("button", { name: "Record a donation" }).click();
      await s.page.getByLabel("Amount").fill("50");
      await s.page.getByRole("dialog").getByRole("button", { name: "Record donation" }).click();
      await s.page.waitForURL(/\/donations\/[A-Za-z0-9]+$/);
      await go(s.page, donorPath);
      await s.page.getByRole("button", { name: "Delete" }).click();
      await s.page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await s.page.getByRole("alert").filter({ hasText: "Anonymize the donor instead" }).waitFor();
      await s.shot(`donor-delete-refused-${w}`);
      await s.page.getByRole("button", { name: "Anonymize instead" }).click();
      const anonymize = s.page.getByRole("dialog").getByRole("button", { name: "Anonymize" });
      await s.page.getByLabel("Confirmation").fill("gale gone");
      assert.equal(await anonymize.isDisabled(), true);
      await s.page.getByLabel("Confirmation").fill(email.toUpperCase());
      await anonymize.click();
      await s.page.getByRole("heading", { name: "Anonymized" }).waitFor();
      await s.page.getByText("This donor was anonymized").waitFor();
      assert.equal(await s.page.getByText(email).count(), 0);
      await s.page.getByText("$50.00").first().waitFor();
      await s.shot(`donor-anonymized-${w}`);

      await go(s.page, "/donor-tiers");
      await s.page.getByRole("img", { name: "Donors per tier" }).waitFor();
      await s.shot(`donor-tiers-${w}`);
      // The refused delete is the one expected 4xx (its console line and its response).
      const unexpected = s.errors.filter((e) => !/donors\.delete|status of 422/.test(e));
      assert.deepEqual(unexpected, []);
      assert.equal(s.errors.filter((e) => /422 POST .*donors\.delete/.test(e)).length, 1);
    } catch (e) {
      console.log("FAILED AT", s.page.url(), s.errors);
      await s.shot(`donors-failure-${w}`);
      throw e;
    } finally {
      await s.close();
    }
  }
});
