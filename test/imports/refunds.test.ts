/**
 * Refunds in an old system's export (issue 55): a "Refunded" flag, a refunded status, a refund row
 * of a transactions ledger. Each file arrives with the money its system kept, counted once, and
 * the ledger's rows that are no gifts are skipped with their reason.
 */

import { readShape } from "@core/import/read";
import { describe, expect, it } from "vitest";
import { donationsOf } from "../donations/brute";
import { expectRecount } from "../donations/recount";
import { makeOrg, member } from "../fixtures";
import givewpRefunded from "../fixtures/imports/givewp-refunded.csv?raw";
import ledger from "../fixtures/imports/opencollective-ledger.csv?raw";
import flagged from "../fixtures/imports/refunded-flag.csv?raw";
import { testEnv } from "../helpers";
import { pageFields, runImport } from "./run";

async function emails(org: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT email FROM donor WHERE organization_id = ? ORDER BY email",
  )
    .bind(org)
    .all<{ email: string }>();
  return results.map((r) => r.email);
}

/** Gifts by the old system's ID: status, amount and refunded amount. */
async function giftsOf(org: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT import_key, status, amount_minor, refunded_minor, currency FROM donation WHERE organization_id = ? ORDER BY import_key",
  )
    .bind(org)
    .all<{
      import_key: string;
      status: string;
      amount_minor: number;
      refunded_minor: number;
      currency: string;
    }>();
  return Object.fromEntries(
    results.map((r) => [
      r.import_key.replace(/^x:/, ""),
      [r.status, r.amount_minor, r.refunded_minor, r.currency],
    ]),
  );
}

/** What the organization kept, per currency, of the gifts that count (completed or partly refunded). */
async function keptOf(org: string) {
  const kept: Record<string, number> = {};
  for (const g of await donationsOf(org))
    if (["completed", "partially_refunded", "refunded"].includes(g.status))
      kept[g.currency] = (kept[g.currency] ?? 0) + g.amount_minor - g.refunded_minor;
  return kept;
}

async function importTwice(text: string, fileName: string) {
  const org = await makeOrg();
  const { caller } = await member(org, "owner");
  const fields = pageFields("donations", text);
  const first = await runImport(caller, "donations", text, { fields, fileName });
  const gifts = await giftsOf(org);
  const again = await runImport(caller, "donations", text, { fields, fileName });
  expect(again.rejected).toEqual([]);
  expect(again.import.counts).toMatchObject({ giftsCreated: 0, donorsCreated: 0, campaignsCreated: 0 });
  expect(await giftsOf(org)).toEqual(gifts);
  return { org, caller, first, fields };
}

describe("refunds in an old system's export", () => {
  it("Open Collective transactions: refund rows refund their gift, fees and expenses are skipped", async () => {
    const { org, caller, first, fields } = await importTwice(ledger, "transactions.csv");
    expect(fields).toMatchObject({ kind: "transactionType", refundTransactionId: "refundOf" });
    expect(first.rejected).toEqual([]);
    expect(first.import.counts).toMatchObject({
      giftsCreated: 3,
      donorsCreated: 3,
      rowsSkipped: 3,
      rowsInvalid: 0,
    });
    expect(await emails(org)).toEqual(["giving@acme.example", "jo@example.de", "kim.park@example.org"]);
    expect(await giftsOf(org)).toEqual({
      "oc-0001": ["partially_refunded", 2_000, 500, "EUR"],
      "oc-0002": ["completed", 10_000, 0, "USD"],
      "oc-0003": ["refunded", 5_000, 5_000, "USD"],
    });
    // By hand: USD 50 + 100 − 50 refunded; EUR 20 − 5 refunded. The expense, the host fee and the
    // refund that names no gift move nothing.
    expect(await keptOf(org)).toEqual({ USD: 10_000, EUR: 1_500 });
    await expectRecount(org, "UTC", caller, "after the Open Collective import");
  });

  it("a dry run says why each ledger row is skipped", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const shape = readShape(ledger);
    const fields = pageFields("donations", ledger);
    const check = await caller.imports.check({
      kind: "donations",
      fileHash: "0".repeat(64),
      headers: shape.headers,
      mapping: shape.headers.map((h) => fields[h] ?? null),
      options: { dateOrder: "auto", decimal: "auto", currency: "USD", timeZone: "UTC", matchPolicy: "fill" },
      rows: shape.sample.map((r, i) => ({ row: i + 2, cells: r.cells })),
    });
    const why = Object.fromEntries(check.rows.map((r) => [r.row, [r.outcome, r.reason ?? r.note]]));
    expect(why).toMatchObject({
      2: ["matched", "Refund of donation oc-0003 (row 6)"],
      3: ["skipped", "A refund that does not say which donation it refunds: not applied"],
      4: ["skipped", "Not a donation: an expense"],
      5: ["skipped", "Not a donation: a host fee"],
      9: ["matched", "Refund of donation oc-0001 (row 8)"],
    });
  });

  it("GiveWP statuses: a refunded gift without an amount is refunded in full", async () => {
    const { org, caller, first } = await importTwice(givewpRefunded, "givewp.csv");
    expect(first.rejected).toEqual([]);
    expect(first.import.counts).toMatchObject({ giftsCreated: 7, donorsCreated: 6, rowsInvalid: 0 });
    expect(await giftsOf(org)).toEqual({
      "301": ["completed", 5_000, 0, "USD"],
      "302": ["refunded", 7_500, 7_500, "USD"],
      "303": ["abandoned", 2_000, 0, "USD"],
      "304": ["failed", 1_000, 0, "USD"],
      "305": ["cancelled", 3_000, 0, "USD"],
      "306": ["cancelled", 4_000, 0, "USD"],
      "307": ["refunded", 2_500, 2_500, "EUR"],
    });
    expect(await keptOf(org)).toEqual({ USD: 5_000, EUR: 0 });
    await expectRecount(org, "UTC", caller, "after the GiveWP import");
  });

  it("a yes/no Refunded column: a yes refunds the whole gift", async () => {
    const { org, caller, first, fields } = await importTwice(flagged, "flagged.csv");
    expect(fields.Refunded).toBe("refunded");
    expect(first.rejected).toEqual([]);
    expect(first.import.counts).toMatchObject({ giftsCreated: 4, donorsCreated: 3, rowsInvalid: 0 });
    expect(await giftsOf(org)).toEqual({
      "g-1": ["refunded", 10_000, 10_000, "USD"],
      "g-2": ["completed", 4_000, 0, "USD"],
      "g-3": ["refunded", 6_000, 6_000, "USD"],
      "g-4": ["completed", 2_500, 0, "EUR"],
    });
    expect(await keptOf(org)).toEqual({ USD: 4_000, EUR: 2_500 });
    await expectRecount(org, "UTC", caller, "after the flagged import");
  });
});
