/**
 * The CSV import screens (issue 23, docs/decisions/028-csv-import.md) as an owner uses them, at
 * 1280 px (a comma file, US-style amounts) and at 360 px (a semicolon file whose amounts need the
 * decimal mark asked): choose the file, map (the columns map themselves), answer the day order,
 * preview, the whole-file check the import waits for (issue 55: its button counts what will be
 * imported; a match by name + postal code is listed, and refused at 1280 px), import, a result that
 * says rows were refused, download the refused rows (a row with extra cells keeps them), see the
 * imported gifts in the list, undo and see them gone. axe runs on every step. An organizer sees no
 * Import button and is sent back from the import page. A file without a header row is proposed as
 * data (ticked off and on by keyboard), mapped by "Column 1"… and imported from row 1; a Stripe
 * "Created date (UTC)" column says on the mapping step that it is read as UTC.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import Papa from "papaparse";
import type { Page } from "playwright-core";
import { axeProblems } from "./a11y.ts";
import { go, openBrowser, signIn } from "./browser.ts";

const HEADERS = [
  "Donation Date",
  "First Name",
  "Last Name",
  "Email",
  "Amount",
  "Campaign",
  "Status",
  "Postal Code",
];

interface Run {
  width: number;
  scheme: "light" | "dark";
  separator: "," | ";";
  /** Amounts of rows 2, 3, 4 and 6 as the file writes them, then as the list shows them. */
  amounts: [string, string, string, string];
  shown: [string, string, string, string];
  dayOrder: string;
  decimal: string | null;
  /** How row 2's date (03/04/2025) reads with that day order. */
  firstDate: string;
  /** Row 5's refused cell and the reason the Worker gives. */
  bad: { column: "Amount" | "Donation Date"; value: string; reason: string };
  /** Whether the user refuses row 7's match by name + postal code (its donor is then created). */
  refuseMatch: boolean;
}

const RUNS: Run[] = [
  {
    width: 1280,
    scheme: "light",
    separator: ",",
    amounts: ["$1,250.00", "$25.50", "$40.00", "$75.00"],
    shown: ["$1,250.00", "$25.50", "$40.00", "$75.00"],
    dayOrder: "Day first: 31/12/2024",
    decimal: null,
    firstDate: "Apr 3, 2025",
    bad: { column: "Amount", value: "twenty", reason: 'Amount: "twenty" is not an amount' },
    refuseMatch: true,
  },
  {
    width: 360,
    scheme: "dark",
    separator: ";",
    amounts: ["1.000", "2.500", "30", "45"],
    shown: ["$1,000.00", "$2,500.00", "$30.00", "$45.00"],
    dayOrder: "Month first: 12/31/2024",
    decimal: "Comma: 1.234,56",
    firstDate: "Mar 4, 2025",
    bad: { column: "Donation Date", value: "soon", reason: 'Date: "soon" is not a date' },
    refuseMatch: false,
  },
];

/**
 * Seven rows: three new donors (Ada gives twice), a new campaign, row 5 refused; row 7 (no e-mail)
 * matches the organization's Mary by name + postal code; row 8 has two cells more than the header
 * (an unquoted separator) and is refused. Dates never tell their order.
 */
function giftsFile(r: Run, tag: string, mary: { last: string; postal: string }) {
  const campaign = `Imported appeal ${tag}`;
  const rows = [
    ["03/04/2025", "Ada", "Lovelace", `ada-${tag}@example.test`, r.amounts[0], campaign, "Completed", ""],
    ["05/06/2025", "Grace", "Hopper", `grace-${tag}@example.test`, r.amounts[1], campaign, "Completed", ""],
    ["07/08/2025", "Ada", "Lovelace", `ada-${tag}@example.test`, r.amounts[2], "", "Pending", ""],
    ["02/01/2025", "Alan", "Turing", `alan-${tag}@example.test`, "10", campaign, "Completed", ""],
    ["09/10/2025", "Katherine", "Johnson", `kj-${tag}@example.test`, r.amounts[3], campaign, "Completed", ""],
    ["11/12/2025", "Mary", mary.last, "", "20", "", "Completed", mary.postal],
    ["10/10/2025", "Dorothy", "Vaughan", `dv-${tag}@example.test`, "5", "", "Completed", "", "more", "notes"],
  ];
  const bad = rows[3] as string[];
  bad[HEADERS.indexOf(r.bad.column)] = r.bad.value;
  const cell = (c: string) => (/[",;\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c);
  return {
    text: [HEADERS, ...rows].map((row) => row.map(cell).join(r.separator)).join("\r\n"),
    campaign,
    extraRow: rows[6] as string[],
  };
}

/** axe on the page as it stands: nothing critical or serious, one h1, one main. */
async function accessible(page: Page, found: string[], where: string) {
  for (const p of await axeProblems(page)) found.push(`${where}: ${p}`);
}

const count = async (page: Page, testId: string) => (await page.getByTestId(testId).innerText()).trim();

for (const r of RUNS) {
  test(`an owner imports gifts at ${r.width} px (${r.scheme}, "${r.separator}" separated), downloads the refused row, sees the gifts, and undoes the import`, async () => {
    const s = await openBrowser({ viewport: { width: r.width, height: 900 }, colorScheme: r.scheme });
    const page = s.page;
    const found: string[] = [];
    const tag = `${r.width}${Date.now().toString(36)}`;
    const fileName = `gifts-${tag}.csv`;
    const mary = { last: `Jackson ${tag}`, postal: "90210" };
    const { text, campaign, extraRow } = giftsFile(r, tag, mary);
    try {
      await signIn(page, "admin@almoner.test");
      await page.waitForURL((u) => u.pathname === "/dashboard");
      // The organization's Mary, with no e-mail: the file's row 7 matches her by name + postal code.
      const maryId = await page.evaluate(async (m) => {
        const res = await fetch("/api/trpc/donors.create", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            json: { data: { firstName: "Mary", lastName: m.last, postalCode: m.postal }, force: true },
          }),
        });
        return ((await res.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id;
      }, mary);
      assert.ok(maryId);
      await go(page, "/donations");
      await page.getByRole("heading", { name: "Donations", level: 1 }).waitFor();
      await page.getByRole("link", { name: "Import", exact: true }).click();
      await page.waitForURL((u) => u.pathname === "/donations/import");
      await page.getByRole("heading", { name: "Import donations", level: 1 }).waitFor();
      await page.getByRole("heading", { name: "Earlier imports" }).waitFor();
      assert.equal(await page.title(), "Import donations · Almoner");
      await accessible(page, found, "file (empty)");

      // 1. The file: read in the browser, its separator detected.
      await page.getByLabel("CSV file").setInputFiles({
        name: fileName,
        mimeType: "text/csv",
        buffer: Buffer.from(text),
      });
      await page.getByTestId("import-file-rows").getByText("7 rows after the header, 8 columns").waitFor();
      assert.equal(await page.getByLabel("Separator").inputValue(), r.separator);
      assert.equal(await page.getByLabel("Encoding").inputValue(), "utf-8");
      await page.getByRole("button", { name: "Next: map columns" }).waitFor();
      await accessible(page, found, "file (chosen)");
      await s.shot(`import-file-${r.width}`);

      // 2. The columns map themselves.
      await page.getByRole("button", { name: "Next: map columns" }).click();
      await page.getByRole("heading", { name: "Map columns" }).waitFor();
      const expected: Record<string, string> = {
        "Donation Date": "donatedAt",
        "First Name": "firstName",
        "Last Name": "lastName",
        Email: "email",
        Amount: "amount",
        Campaign: "campaign",
        Status: "status",
        "Postal Code": "postalCode",
      };
      for (const [h, field] of Object.entries(expected))
        assert.equal(await page.getByLabel(`Import “${h}” as`).inputValue(), field, h);
      // A field chosen for another column moves there; Next waits while Amount is not mapped.
      await page.getByLabel("Import “Status” as").selectOption("amount");
      assert.equal(await page.getByLabel("Import “Amount” as").inputValue(), "");
      await page.getByLabel("Import “Status” as").selectOption("");
      await page.getByTestId("mapping-problem").getByText("Still needed: Amount.").waitFor();
      assert.equal(await page.getByRole("button", { name: "Next: options" }).isDisabled(), true);
      await page.getByLabel("Import “Amount” as").selectOption("amount");
      await page.getByLabel("Import “Status” as").selectOption("status");
      assert.equal(await page.getByRole("button", { name: "Next: options" }).isDisabled(), false);
      await accessible(page, found, "map");
      await s.shot(`import-map-${r.width}`);

      // 3. Options: the dates do not tell their order (nor, in the second file, the amounts their mark).
      await page.getByRole("button", { name: "Next: options" }).click();
      await page.getByRole("heading", { name: "Options" }).waitFor();
      await page.getByRole("group", { name: "In the file's dates, which comes first?" }).waitFor();
      assert.equal(
        await page.getByRole("group", { name: "What separates the decimals in the file's amounts?" }).count(),
        r.decimal ? 1 : 0,
      );
      assert.equal(await page.getByRole("button", { name: "Next: preview" }).isDisabled(), true);
      await accessible(page, found, "options");
      await page.getByLabel(r.dayOrder).check();
      if (r.decimal) {
        assert.equal(await page.getByRole("button", { name: "Next: preview" }).isDisabled(), true);
        await page.getByLabel(r.decimal).check();
      }
      await s.shot(`import-options-${r.width}`);

      // 4. The preview: the rows as the Worker will store them.
      await page.getByRole("button", { name: "Next: preview" }).click();
      await page.getByRole("heading", { name: "Preview" }).waitFor();
      const first = page.locator('[data-row="2"]');
      await first.getByText(r.shown[0]).waitFor();
      await first.getByText(r.firstDate).waitFor();
      await first.getByText("New donation").waitFor();
      await first.getByText("new", { exact: true }).waitFor(); // the campaign it creates
      await page.locator('[data-row="5"]').getByText(r.bad.reason).waitFor();
      // A refused row is named by its cells, not a dash (issue 53, M12).
      await page.locator('[data-row="5"]').getByText("Alan Turing").waitFor();
      await accessible(page, found, "preview");

      // The whole file, checked by itself before the import can start: counts before anything is written.
      await page.getByText("Checked all 7 rows").waitFor();
      assert.equal(await count(page, "tally-new"), "5");
      assert.equal(await count(page, "tally-invalid"), "2");
      assert.equal(await count(page, "tally-new-donors"), "3");
      assert.equal(await count(page, "tally-donors-matched"), "1");
      assert.equal(await count(page, "tally-campaigns"), "1");
      // The button counts the rows that will be imported, not the file's.
      const importButton = page.getByTestId("import-button");
      assert.equal((await importButton.innerText()).trim(), "Import 5 rows (2 refused)");
      // Row 7 goes to Mary by name + postal code: listed, with a way to refuse it.
      const matches = page.getByRole("region", { name: /^Matched without an e-mail: 1 row/ });
      await matches.locator('[data-match-row="7"]').getByText(`Mary ${mary.last}`).first().waitFor();
      await matches.getByText("(by name and postal code)").waitFor();
      await page.getByRole("region", { name: "Rows refused or skipped" }).getByText(r.bad.reason).waitFor();
      await page
        .getByRole("region", { name: "Rows refused or skipped" })
        .getByText("Alan Turing —")
        .waitFor();
      await accessible(page, found, "preview (whole file checked)");
      await s.shot(`import-preview-${r.width}`);
      await matches.scrollIntoViewIfNeeded();
      await s.shot(`import-check-${r.width}`);
      if (r.refuseMatch) {
        await matches.getByRole("button", { name: "Create a new donor instead, for row 7" }).click();
        // The check runs again with the row kept apart: one more new donor, none matched.
        await page.waitForFunction(
          () => document.querySelector('[data-testid="tally-new-donors"]')?.textContent?.trim() === "4",
        );
        await page.getByText("Checked all 7 rows").waitFor();
        await page.getByRole("button", { name: `Match again, row 7 to Mary ${mary.last}` }).waitFor();
        assert.equal(await count(page, "tally-new-donors"), "4");
        assert.equal(await count(page, "tally-donors-matched"), "0");
        await accessible(page, found, "preview (a match refused)");
        await s.shot(`import-preview-refused-${r.width}`);
      }
      const donorsCreated = r.refuseMatch ? 4 : 3;

      // 5. The import.
      await importButton.click();
      const result = page.getByRole("region", { name: "Import finished" });
      await result.waitFor({ timeout: 30_000 });
      // Rows were refused: the headline says so, and no green check.
      assert.equal(
        (await result.getByTestId("import-result-title").innerText()).trim(),
        `2 of 7 rows of ${fileName} were refused; 5 imported`,
      );
      assert.equal(await result.locator("[data-level]").getAttribute("data-level"), "some");
      assert.equal(await count(page, "count-gifts"), "5");
      assert.equal(await count(page, "count-donors-created"), String(donorsCreated));
      assert.equal(await count(page, "count-donors-matched"), r.refuseMatch ? "0" : "1");
      assert.equal(await count(page, "count-campaigns"), "1");
      assert.equal(await count(page, "count-refused"), "2");
      await accessible(page, found, "result");
      await s.shot(`import-result-${r.width}`);

      // The refused row, in the file's own columns, then its row number and reason.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        result.getByRole("button", { name: /^Download rejected rows/ }).click(),
      ]);
      assert.equal(download.suggestedFilename(), `gifts-${tag}-rejected.csv`);
      const csv = readFileSync((await download.path()) as string, "utf8");
      assert.ok(csv.startsWith("\uFEFF"), "the download starts with a byte-order mark");
      const parsed = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
      assert.deepEqual(parsed[0], [...HEADERS, "Extra cell 1", "Extra cell 2", "Row", "Reason"]);
      assert.equal(parsed.length, 3);
      const refused = parsed[1] as string[];
      assert.deepEqual(refused.slice(-2), ["5", r.bad.reason]);
      assert.equal(refused[HEADERS.indexOf(r.bad.column)], r.bad.value);
      assert.equal(refused[1], "Alan");
      // The row with two cells more than the header keeps every one of them.
      assert.deepEqual(parsed[2], [
        ...extraRow,
        "8",
        "The row has 10 cells but the header has 8 (an unquoted separator in a value?)",
      ]);

      // The imported gifts, in the list filtered to this import.
      await result.getByRole("link", { name: "View the imported donations" }).click();
      await page.waitForURL((u) => u.pathname === "/donations" && !!u.searchParams.get("importId"));
      const importId = new URL(page.url()).searchParams.get("importId") as string;
      await page.getByTestId("import-chip").getByText(`From import ${fileName}`).waitFor();
      await page.getByText("5 rows", { exact: true }).waitFor();
      for (const amount of r.shown) await page.getByText(amount, { exact: true }).first().waitFor();
      assert.ok((await page.getByText(campaign).count()) >= 3);
      await accessible(page, found, "donations of the import");
      await s.shot(`import-list-${r.width}`);

      // Undo, from the earlier imports: the confirmation says what goes; then they are gone.
      await go(page, "/donations/import");
      const row = page.locator(`[data-import="${importId}"]`);
      await row.getByText("Completed").waitFor();
      await row.getByRole("button", { name: `Undo ${fileName}` }).click();
      const dialog = page.getByRole("alertdialog");
      await dialog
        .getByTestId("undo-counts")
        .getByText(`To remove: 5 donations, ${donorsCreated} donors and 1 campaign.`)
        .waitFor();
      await accessible(page, found, "undo dialog");
      await s.shot(`import-undo-${r.width}`);
      await dialog.getByRole("button", { name: "Undo import" }).click();
      await page
        .getByText(`Import undone: removed 5 donations, ${donorsCreated} donors and 1 campaign.`)
        .waitFor({ timeout: 30_000 });
      await dialog.waitFor({ state: "hidden" });
      await row.getByText("Undone").waitFor();
      await go(page, `/donations?importId=${importId}`);
      await page.getByText("0 rows", { exact: true }).waitFor();
      await page.getByText("This import was undone.").waitFor();

      assert.deepEqual(found, []);
      assert.deepEqual(
        s.errors.filter((e) => !e.includes("favicon")),
        [],
      );
    } finally {
      await s.close();
    }
  });
}

/** A donations file that lost its header row: e-mail, amount, date; the first record is a gift. */
function headerlessFile(tag: string) {
  return [
    [`ada-${tag}@example.test`, "125.00", "2025-03-04"],
    [`grace-${tag}@example.test`, "30.00", "2025-05-06"],
    [`alan-${tag}@example.test`, "12.50", "2025-07-08"],
  ]
    .map((r) => r.join(","))
    .join("\r\n");
}

const STRIPE = readFileSync("test/fixtures/imports/stripe-unified-payments.csv");

const HEADERLESS_RUNS = [
  { width: 1280, scheme: "light" },
  { width: 360, scheme: "dark" },
] as const;

for (const r of HEADERLESS_RUNS) {
  test(`at ${r.width} px (${r.scheme}) a file without a header row is proposed as data and imported from row 1; a "(UTC)" date column says so`, async () => {
    const s = await openBrowser({ viewport: { width: r.width, height: 900 }, colorScheme: r.scheme });
    const page = s.page;
    const found: string[] = [];
    const tag = `nh${r.width}${Date.now().toString(36)}`;
    const fileName = `no-header-${tag}.csv`;
    try {
      await signIn(page, "admin@almoner.test");
      await page.waitForURL((u) => u.pathname === "/dashboard");
      await go(page, "/donations/import");
      await page.getByRole("heading", { name: "Import donations", level: 1 }).waitFor();

      // 1. The file: its first record holds an e-mail, an amount and a date, so it is proposed as data.
      await page.getByLabel("CSV file").setInputFiles({
        name: fileName,
        mimeType: "text/csv",
        buffer: Buffer.from(headerlessFile(tag)),
      });
      const firstRowIsData = page.getByRole("checkbox", { name: "The first row is data" });
      await page.getByTestId("import-file-rows").getByText("3 rows, 3 columns").waitFor();
      assert.equal(await firstRowIsData.isChecked(), true);
      await page
        .getByTestId("import-header-row")
        .getByText("The first row looks like data, not column names: it is read as a row.")
        .waitFor();
      // Why it is ticked is the checkbox's own description.
      assert.equal(
        await firstRowIsData.evaluate(
          (el) => document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent,
        ),
        "The first row looks like data, not column names: it is read as a row.",
      );
      const columns = page.getByRole("list", { name: "Columns in the file" });
      assert.deepEqual(
        (await columns.getByRole("listitem").allInnerTexts()).map((t) => t.trim()),
        ["Column 1", "Column 2", "Column 3"],
      );
      await accessible(page, found, "file (first row is data)");
      await firstRowIsData.scrollIntoViewIfNeeded();
      await s.shot(`import-headerless-file-${r.width}`);

      // Off and on again by keyboard: the file is read again each time, the focus stays on the box.
      await firstRowIsData.focus();
      await page.keyboard.press("Space");
      await page.getByTestId("import-file-rows").getByText("2 rows after the header, 3 columns").waitFor();
      await columns.getByText(`ada-${tag}@example.test`).waitFor();
      assert.equal(await firstRowIsData.isChecked(), false);
      assert.equal(
        await firstRowIsData.evaluate((el) => el === document.activeElement),
        true,
        "the focus stays on the checkbox after the file is read again",
      );
      await page.keyboard.press("Space");
      await page.getByTestId("import-file-rows").getByText("3 rows, 3 columns").waitFor();
      assert.equal(await firstRowIsData.isChecked(), true);
      await columns.getByText("Column 1", { exact: true }).waitFor();

      // 2. The columns are named by their place; the person maps them.
      await page.getByRole("button", { name: "Next: map columns" }).click();
      await page.getByRole("heading", { name: "Map columns" }).waitFor();
      await page.getByLabel("Import “Column 1” as").selectOption("email");
      await page.getByLabel("Import “Column 2” as").selectOption("amount");
      await page.getByLabel("Import “Column 3” as").selectOption("donatedAt");
      await page.locator('[data-column="Column 1"]').getByText(`ada-${tag}@example.test`).waitFor();
      assert.equal(await page.getByTestId("mapping-problem").count(), 0);
      await accessible(page, found, "map (first row is data)");

      // 3. Options: ISO dates tell their own order, nothing to answer.
      await page.getByRole("button", { name: "Next: options" }).click();
      await page.getByRole("heading", { name: "Options" }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Next: preview" }).isDisabled(), false);

      // 4. The preview numbers the rows as the file does: the first record is row 1.
      await page.getByRole("button", { name: "Next: preview" }).click();
      await page.getByRole("heading", { name: "Preview" }).waitFor();
      const first = page.locator('[data-row="1"]');
      await first.getByText(`ada-${tag}@example.test`).first().waitFor();
      await first.getByText("$125.00").waitFor();
      await first.getByText("Mar 4, 2025").waitFor();
      assert.equal(await page.locator('[data-row="4"]').count(), 0);
      await page.getByText("Checked all 3 rows").waitFor();
      assert.equal(await count(page, "tally-new"), "3");
      const importButton = page.getByTestId("import-button");
      assert.equal((await importButton.innerText()).trim(), "Import 3 rows");

      // 5. The import: three donations, the first record's among them.
      await importButton.click();
      const result = page.getByRole("region", { name: "Import finished" });
      await result.waitFor({ timeout: 30_000 });
      assert.equal(await count(page, "count-gifts"), "3");
      assert.equal(await count(page, "count-refused"), "0");
      await result.getByRole("link", { name: "View the imported donations" }).click();
      await page.waitForURL((u) => u.pathname === "/donations" && !!u.searchParams.get("importId"));
      await page.getByText("3 rows", { exact: true }).waitFor();
      await page.getByText("$125.00", { exact: true }).first().waitFor();
      await page.getByText(`ada-${tag}@example.test`).first().waitFor();

      // A Stripe export: its "Created date (UTC)" is read as UTC, and the mapping step says so.
      await go(page, "/donations/import");
      await page.getByLabel("CSV file").setInputFiles({
        name: `stripe-${tag}.csv`,
        mimeType: "text/csv",
        buffer: STRIPE,
      });
      await page.getByTestId("import-file-rows").getByText("4 rows after the header, 24 columns").waitFor();
      assert.equal(await firstRowIsData.isChecked(), false);
      await page.getByRole("button", { name: "Next: map columns" }).click();
      await page.getByRole("heading", { name: "Map columns" }).waitFor();
      const created = page.locator('[data-column="Created date (UTC)"]');
      assert.equal(await created.getByLabel("Import “Created date (UTC)” as").inputValue(), "donatedAt");
      await created.getByTestId("column-zone").getByText("Read as UTC: the column's name says so.").waitFor();
      // The note is the select's description, not only text beside it.
      assert.equal(
        await created
          .getByLabel("Import “Created date (UTC)” as")
          .evaluate((el) => document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent),
        "Read as UTC: the column's name says so.",
      );
      await accessible(page, found, "map (a UTC column)");
      await created.scrollIntoViewIfNeeded();
      await s.shot(`import-utc-map-${r.width}`);

      assert.deepEqual(found, []);
      assert.deepEqual(
        s.errors.filter((e) => !e.includes("favicon")),
        [],
      );
    } finally {
      await s.close();
    }
  });
}

test("an organizer sees no Import button and is sent back from the import pages", async () => {
  const s = await openBrowser();
  try {
    await signIn(s.page, "organizer@almoner.test");
    await s.page.waitForURL((u) => u.pathname === "/dashboard");
    for (const list of ["/donations", "/donors"]) {
      await go(s.page, list);
      await s.page.getByRole("heading", { level: 1 }).waitFor();
      await s.page.getByRole("button", { name: "Export CSV" }).waitFor();
      assert.equal(await s.page.getByRole("link", { name: "Import", exact: true }).count(), 0, list);
      await go(s.page, `${list}/import`);
      await s.page.waitForURL((u) => u.pathname === list);
    }
  } finally {
    await s.close();
  }
});
