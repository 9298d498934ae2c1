/**
 * A migration that loses nothing (issue 55): each old system's export, mapped as the page maps it
 * (autoMap on the header and the first rows), imported on real D1, arrives as that system had it:
 * its donors, its gifts at their instants, its totals.
 */

import { decodeBytes, detectEncoding } from "@core/import/encoding";
import { describe, expect, it } from "vitest";
import { donationsOf } from "../donations/brute";
import { expectRecount } from "../donations/recount";
import { makeOrg, member } from "../fixtures";
import { DONORBOX_GERMAN_NO_HEADER, windows1252 } from "../fixtures/imports/awkward";
import givewpRecurring from "../fixtures/imports/givewp-recurring.csv?raw";
import stripeUnified from "../fixtures/imports/stripe-unified-payments.csv?raw";
import { testEnv } from "../helpers";
import { continueImport, pageFields, runImport } from "./run";

async function donorsOf(org: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT first_name, last_name, email FROM donor WHERE organization_id = ? ORDER BY email",
  )
    .bind(org)
    .all<{ first_name: string | null; last_name: string | null; email: string | null }>();
  return results;
}

describe("exports of the systems a team leaves", () => {
  it("Stripe unified payments: UTC times stay UTC in Los Angeles, customers' names split", async () => {
    const zone = "America/Los_Angeles";
    const org = await makeOrg({ timeZone: zone });
    const { caller } = await member(org, "owner");
    const { import: done, rejected } = await runImport(caller, "donations", stripeUnified, {
      fields: pageFields("donations", stripeUnified),
      options: { timeZone: zone },
    });
    expect(rejected).toEqual([]);
    expect(done.counts).toMatchObject({ giftsCreated: 4, donorsCreated: 4, rowsInvalid: 0 });
    expect(await donorsOf(org)).toEqual([
      { first_name: "Ana", last_name: "Silva", email: "ana.silva@example.com" },
      { first_name: "Benjamin", last_name: "Okafor", email: "ben.okafor@example.com" },
      { first_name: "Chloé", last_name: "Dubois", email: "chloe.d@example.com" },
      { first_name: "Dev", last_name: "Kapoor", email: "dev.k@example.com" },
    ]);
    const gifts = (await donationsOf(org)).sort((a, b) => a.donated_at - b.donated_at);
    expect(gifts.map((g) => new Date(g.donated_at).toISOString())).toEqual([
      "2025-06-01T03:15:00.000Z",
      "2025-06-01T18:40:09.000Z",
      "2025-06-02T07:05:30.000Z",
      "2025-06-02T23:30:00.000Z",
    ]);
    expect(gifts.reduce((s, g) => s + g.amount_minor - g.refunded_minor, 0)).toBe(18_000);
    // The first gift is 31 May in Los Angeles: the day rollups put it there.
    await expectRecount(org, zone, caller, "after the Stripe import");
  });

  it("GiveWP with a yes/no Recurring Donation: every row arrives, the recurring ones noted", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const { import: done, rejected } = await runImport(caller, "donations", givewpRecurring, {
      fields: pageFields("donations", givewpRecurring),
    });
    expect(rejected).toEqual([]);
    expect(done.counts).toMatchObject({ giftsCreated: 4, donorsCreated: 3, rowsInvalid: 0 });
    const { results: gifts } = await testEnv.DB.prepare(
      "SELECT amount_minor, frequency, internal_note FROM donation WHERE organization_id = ? ORDER BY donated_at",
    )
      .bind(org)
      .all();
    expect(gifts.map((g) => [g.amount_minor, g.frequency, g.internal_note])).toEqual([
      [2500, "one_time", 'Recurring in the old system ("Yes"); its file gives no interval.'],
      [10_000, "one_time", "Met at the gala"],
      [2500, "one_time", 'Card updated\nRecurring in the old system ("Yes"); its file gives no interval.'],
      [100_000, "one_time", null],
    ]);
    expect((await donorsOf(org)).map((d) => d.email)).toEqual([
      "aisha.r@example.org",
      "jim.oneil@example.org",
      "maria.gonzalez@example.org",
    ]);
    await expectRecount(org, "UTC", caller, "after the GiveWP import");
  });

  it("a German Excel copy of Donorbox without its header: rows from 1, the refused one named by its row", async () => {
    const org = await makeOrg({ timeZone: "Europe/Berlin", currency: "EUR" });
    const { caller } = await member(org, "owner");
    const bytes = windows1252(DONORBOX_GERMAN_NO_HEADER);
    const text = decodeBytes(bytes, detectEncoding(bytes));
    const fields = {
      "Column 1": "name",
      "Column 2": "email",
      "Column 3": "campaign",
      "Column 4": "amount",
      "Column 5": "currency",
      "Column 6": "donatedAt",
      "Column 7": "emailOptIn",
    } as const;
    const options = {
      firstRowIsData: true,
      decimal: ",",
      dateOrder: "dmy",
      currency: "EUR",
      timeZone: "Europe/Berlin",
    } as const;
    // Stopped after the first batch, then resumed: the import keeps where its rows start.
    const first = await runImport(caller, "donations", text, { fields, options, batchRows: 2, stopAfter: 1 });
    expect(first.import).toMatchObject({ nextRow: 3, rowsDone: 2, totalRows: 5 });
    const { import: done, rejected } = await continueImport(caller, first.import.id, text, { batchRows: 2 });
    expect(rejected).toEqual([{ row: 4, reason: expect.stringMatching(/^Amount/) }]);
    expect(done).toMatchObject({ status: "completed", nextRow: 6, rowsDone: 5 });
    expect(done.counts).toMatchObject({ giftsCreated: 4, donorsCreated: 3, rowsInvalid: 1 });
    expect(await donorsOf(org)).toEqual([
      { first_name: "Anna", last_name: "Schmidt", email: "anna.schmidt@example.de" },
      { first_name: "Jürgen", last_name: "Müller", email: "juergen.mueller@example.de" },
      { first_name: "Zoë", last_name: "Straße", email: "zoe.strasse@example.de" },
    ]);
    const gifts = (await donationsOf(org)).sort((a, b) => a.donated_at - b.donated_at);
    expect(gifts.map((g) => [g.amount_minor, g.currency, new Date(g.donated_at).toISOString()])).toEqual([
      [5000, "EUR", "2025-04-02T08:15:00.000Z"],
      [123_456, "EUR", "2025-04-03T16:02:00.000Z"],
      [2000, "EUR", "2025-04-04T07:00:00.000Z"],
      [1550, "EUR", "2025-04-13T06:30:00.000Z"],
    ]);
    const refused = await caller.imports.rejections({ id: done.id, after: 0, limit: 10 });
    expect(refused.rows.map((r) => [r.row, r.cells[0]])).toEqual([[4, "Max Weber"]]);
    await expectRecount(org, "Europe/Berlin", caller, "after the headerless import");
  });
});
