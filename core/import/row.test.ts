/**
 * Every row of every export fixture through the Worker's normalizer (issue 23), with the mapping and
 * the reading options the import page works out for the file: each row becomes the gift and donor
 * that system meant, in the forms' own rules.
 */
import { describe, expect, it } from "vitest";
import bloomerangConstituents from "../../test/fixtures/imports/bloomerang-constituents.csv?raw";
import bloomerangTransactions from "../../test/fixtures/imports/bloomerang-transactions.csv?raw";
import civicrm from "../../test/fixtures/imports/civicrm-contributions.csv?raw";
import donorbox from "../../test/fixtures/imports/donorbox-donations.csv?raw";
import givewp from "../../test/fixtures/imports/givewp-donations.csv?raw";
import givewpRecurring from "../../test/fixtures/imports/givewp-recurring.csv?raw";
import npsp from "../../test/fixtures/imports/npsp-opportunities.csv?raw";
import opencollective from "../../test/fixtures/imports/opencollective-transactions.csv?raw";
import stripe from "../../test/fixtures/imports/stripe-payments.csv?raw";
import stripeUnified from "../../test/fixtures/imports/stripe-unified-payments.csv?raw";
import type { ImportKind, ImportMapping, ImportOptions } from "./fields";
import { autoMap, columnZones } from "./mapping";
import { readShape } from "./read";
import { campaignInCurrency, mapCells, normalizeRow, type RowResult } from "./row";
import { detectDateOrder, detectDecimal } from "./values";

/** The file read as the page reads it: mapping, then day order and decimal mark from the columns. */
function rows(kind: ImportKind, text: string, o: Partial<ImportOptions> = {}) {
  const shape = readShape(text, { sampleRows: 1000 });
  const mapping = autoMap(
    kind,
    shape.headers,
    shape.sample.map((r) => r.cells),
  ) as ImportMapping;
  const column = (field: string) => {
    const i = mapping.indexOf(field as never);
    return i < 0 ? [] : shape.sample.map((r) => r.cells[i] ?? "");
  };
  const order = detectDateOrder(column("donatedAt")).order;
  const decimal = detectDecimal([
    ...column("amount"),
    ...column("refundedAmount"),
    ...column("processingFee"),
  ]);
  const options: ImportOptions = {
    dateOrder: order ?? "auto",
    decimal: decimal ?? "auto",
    currency: "USD",
    timeZone: "UTC",
    matchPolicy: "fill",
    ...o,
  };
  const zones = columnZones(shape.headers, mapping);
  return shape.sample.map((r) => normalizeRow(kind, mapCells(mapping, r.cells), options, zones));
}

const ok = (r: RowResult | undefined) => {
  if (!r?.ok) throw new Error(`refused: ${r && !r.ok ? r.problem : "no row"}`);
  return r;
};
const iso = (ms: number) => new Date(ms).toISOString();

describe("each export's rows, as its system meant them", () => {
  it("GiveWP", () => {
    const [a, b, c, d, e, f] = rows("donations", givewp);
    expect(ok(a).gift).toMatchObject({
      externalId: "1042",
      amountMinor: 125_000,
      currency: "USD",
      status: "completed",
      campaign: "Winter Shelter Appeal",
      gateway: "stripe",
      mode: "live",
      message: "Keep up the good work, truly.",
    });
    // GiveWP gives the time of day in a column of its own.
    expect(iso(ok(a).gift?.donatedAt as number)).toBe("2025-03-14T09:41:00.000Z");
    expect(ok(a).donor?.data).toMatchObject({
      firstName: "Maria",
      lastName: "Gonzalez",
      email: "maria.gonzalez@example.org",
      postalCode: "97205",
      country: "US",
      externalId: "301",
    });
    expect(ok(b).donor?.data.lastName).toBe("O'Neil");
    expect(ok(c).gift).toMatchObject({ status: "refunded", amountMinor: 5_000, refundedMinor: 5_000 });
    expect(ok(d).gift?.status).toBe("failed");
    expect(ok(e).gift?.status).toBe("pending");
    expect(ok(e).donor?.data.company).toBe("Harbor Trust Fund");
    expect(ok(f).gift?.mode).toBe("test");
  });

  it("Donorbox: offsets in the dates, currencies per row, recurring intervals, anonymity", () => {
    const [a, b, c, d] = rows("donations", donorbox);
    expect(ok(a).gift).toMatchObject({
      amountMinor: 5_000,
      currency: "EUR",
      processingFeeMinor: 175,
      transactionId: "ch_3PbX1",
    });
    expect(iso(ok(a).gift?.donatedAt as number)).toBe("2025-04-02T08:15:00.000Z");
    expect(ok(a).donor?.data).toMatchObject({ country: "DE", emailOptIn: true, externalId: "D-501" });
    expect(ok(b).gift).toMatchObject({ currency: "GBP", frequency: "monthly", message: "Monthly, from Tom" });
    expect(ok(b).donor?.data).toMatchObject({ country: "GB", postalCode: "SW1A 2AA" });
    expect(ok(c).gift).toMatchObject({ amountMinor: 100_000, anonymous: true, paymentMethod: "paypal" });
    expect(ok(d).gift?.frequency).toBe("quarterly");
  });

  it("Stripe: refunds in part and in full, failures, test mode, lower-case currencies", () => {
    const [a, b, c, d, e] = rows("donations", stripe);
    expect(ok(a).gift).toMatchObject({
      amountMinor: 7_500,
      currency: "USD",
      status: "completed",
      processingFeeMinor: 248,
      transactionId: "ch_3Qa1",
    });
    expect(iso(ok(a).gift?.donatedAt as number)).toBe("2025-05-01T14:03:22.000Z");
    expect(ok(a).donor?.data).toMatchObject({
      firstName: "Pat",
      lastName: "Lee",
      email: "pat.lee@example.com",
      addressLine1: "4 Harbor Way",
    });
    expect(ok(b).gift).toMatchObject({
      status: "partially_refunded",
      amountMinor: 20_000,
      refundedMinor: 5_000,
    });
    expect(ok(c).gift).toMatchObject({ status: "refunded", refundedMinor: 3_000 });
    expect(ok(d).gift?.status).toBe("failed");
    expect(ok(e).gift?.mode).toBe("test");
  });

  it("Salesforce NPSP: month-first dates, stages, the campaign source", () => {
    const [a, b, c, d] = rows("donations", npsp);
    expect(ok(a).gift).toMatchObject({
      amountMinor: 100_000,
      status: "completed",
      campaign: "Annual Fund 2025",
      paymentMethod: "check",
      externalId: "0065e00000AbCdE",
    });
    expect(iso(ok(a).gift?.donatedAt as number)).toBe("2025-06-02T12:00:00.000Z");
    expect(ok(b).gift?.paymentMethod).toBe("card");
    expect(ok(c).gift).toMatchObject({ status: "pending", amountMinor: 500_000 });
    expect(ok(d).gift?.status).toBe("failed");
  });

  it("Open Collective: fees written as negatives, the contributor as the donor", () => {
    const [a, b, c] = rows("donations", opencollective);
    expect(ok(a).gift).toMatchObject({
      amountMinor: 1_000,
      processingFeeMinor: 59,
      campaign: "Open Shelter",
      gateway: "STRIPE",
      paymentMethod: "card",
    });
    expect(ok(a).donor?.data).toMatchObject({
      firstName: "Kim",
      lastName: "Park",
      email: "kim.park@example.org",
      externalId: "kim-park",
    });
    expect(ok(b).gift).toMatchObject({ amountMinor: 10_000, paymentMethod: "other", message: "Thanks!" });
    expect(ok(c).gift?.currency).toBe("EUR");
  });

  it("CiviCRM in a French locale: decimal commas with spaces, chargebacks", () => {
    const [a, b, c, d] = rows("donations", civicrm);
    expect(ok(a).gift).toMatchObject({
      amountMinor: 120_000,
      currency: "EUR",
      campaign: "Hiver solidaire",
      externalId: "9001",
    });
    expect(ok(a).donor?.data).toMatchObject({ firstName: "Claire", lastName: "Dupont", country: "FR" });
    expect(ok(b).gift).toMatchObject({ amountMinor: 4_550, status: "pending", paymentMethod: "check" });
    expect(ok(c).gift).toMatchObject({ status: "refunded", refundedMinor: 10_000 });
    expect(ok(d).gift?.status).toBe("disputed");
  });

  it("Bloomerang: constituents (an organization in the name column) and transactions", () => {
    const people = rows("donors", bloomerangConstituents, {});
    expect(ok(people[0]).donor?.data).toMatchObject({
      firstName: "Gloria",
      lastName: "Adams",
      emailOptIn: true,
      country: "US",
      externalId: "1001",
    });
    expect(ok(people[2]).donor?.data).toMatchObject({ firstName: "Bao", lastName: "Nguyen" });
    const [, , c, d] = rows("donations", bloomerangTransactions);
    expect(ok(c).gift).toMatchObject({
      amountMinor: 250_000,
      paymentMethod: "check",
      campaign: "Scholarship Drive",
      internalNote: "Check #4471",
    });
    expect(ok(d).donor?.data).toMatchObject({ firstName: "Bao", lastName: "Nguyen" });
  });
});

describe("a row the forms would refuse is refused with the form's words", () => {
  it("names the field and the rule", () => {
    const text = [
      "Name,Email,Amount,Date,Country,Type,Company",
      "Ada Lovelace,not-an-email,10,2025-01-01,,,",
      "Ada Lovelace,ada@example.com,10,2025-01-01,Atlantis,,",
      "Riverside Rotary Club,,10,2025-01-01,,Organization,",
      "Zed,zed@example.com,10,2025-01-01,,Alien,",
    ].join("\n");
    const shape = readShape(text);
    const mapping = [
      "name",
      "email",
      "amount",
      "donatedAt",
      "country",
      "donorType",
      "company",
    ] as ImportMapping;
    const o: ImportOptions = {
      dateOrder: "auto",
      decimal: "auto",
      currency: "USD",
      timeZone: "UTC",
      matchPolicy: "fill",
    };
    const [a, b, c, d] = shape.sample.map((r) => normalizeRow("donations", mapCells(mapping, r.cells), o));
    expect(a).toEqual({ ok: false, problem: "E-mail: Enter a valid e-mail address" });
    expect(b).toEqual({ ok: false, problem: 'Country: "Atlantis" is not a country this import knows' });
    // An organization named in the one name column is its company, not a person.
    expect(ok(c).donor?.data).toMatchObject({
      type: "organization",
      company: "Riverside Rotary Club",
      firstName: null,
      lastName: null,
    });
    expect(d).toEqual({ ok: false, problem: 'Donor type: "Alien" is not a known donor type' });
  });
});

describe("a Stripe unified payments export in an organization far from UTC (issue 55)", () => {
  it("reads Created date (UTC) as UTC, keeps a value's own zone, and splits the customer's name", () => {
    const r = rows("donations", stripeUnified, { timeZone: "America/Los_Angeles" }).map(ok);
    expect(r.map((x) => iso(x.gift?.donatedAt ?? 0))).toEqual([
      "2025-06-01T03:15:00.000Z",
      "2025-06-01T18:40:09.000Z",
      "2025-06-02T07:05:30.000Z",
      "2025-06-02T23:30:00.000Z",
    ]);
    expect(r.map((x) => [x.donor?.data.firstName, x.donor?.data.lastName])).toEqual([
      ["Ana", "Silva"],
      ["Benjamin", "Okafor"],
      ["Chloé", "Dubois"],
      ["Dev", "Kapoor"],
    ]);
  });

  it("reads a column whose header names no zone in the organization's", () => {
    const o: ImportOptions = {
      dateOrder: "auto",
      decimal: "auto",
      currency: "USD",
      timeZone: "America/Los_Angeles",
      matchPolicy: "fill",
    };
    const cells = { email: "a@example.org", amount: "5", donatedAt: "2025-06-01 03:15:00" };
    const local = ok(normalizeRow("donations", cells, o));
    expect(iso(local.gift?.donatedAt ?? 0)).toBe("2025-06-01T10:15:00.000Z");
    const utc = ok(normalizeRow("donations", cells, o, { donatedAt: "UTC" }));
    expect(iso(utc.gift?.donatedAt ?? 0)).toBe("2025-06-01T03:15:00.000Z");
  });
});

describe("GiveWP's Recurring Donation yes/no (issue 55)", () => {
  it("refuses no row: a yes stays one-time and its note says it recurred, a no changes nothing", () => {
    const r = rows("donations", givewpRecurring).map(ok);
    expect(r.map((x) => x.gift?.frequency)).toEqual(["one_time", "one_time", "one_time", "one_time"]);
    const said = 'Recurring in the old system ("Yes"); its file gives no interval.';
    expect(r.map((x) => x.gift?.internalNote)).toEqual([
      said,
      "Met at the gala",
      `Card updated\n${said}`,
      null,
    ]);
  });

  it("adds nothing when a frequency column gives the interval", () => {
    const o: ImportOptions = {
      dateOrder: "auto",
      decimal: "auto",
      currency: "USD",
      timeZone: "UTC",
      matchPolicy: "fill",
    };
    const cells = {
      email: "a@example.org",
      amount: "5",
      donatedAt: "2025-06-01",
      recurring: "Yes",
      frequency: "Monthly",
    };
    expect(ok(normalizeRow("donations", cells, o)).gift).toMatchObject({
      frequency: "monthly",
      internalNote: null,
    });
    const odd = ok(normalizeRow("donations", { ...cells, frequency: "", recurring: "Sometimes" }, o));
    expect(odd.gift?.internalNote).toBe(
      'Recurring in the old system ("Sometimes"); its file gives no interval.',
    );
  });
});

describe("campaignInCurrency", () => {
  it("names the sibling by its currency, within a campaign name's 128 characters", () => {
    expect(campaignInCurrency("Winter appeal", "EUR")).toBe("Winter appeal (EUR)");
    const long = campaignInCurrency(`${"a".repeat(125)} b`, "EUR");
    expect(long).toHaveLength(128);
    expect(long.endsWith("a (EUR)")).toBe(true);
  });
});

describe("refunds and ledger rows (issue 55)", () => {
  const o = {
    dateOrder: "auto",
    decimal: "auto",
    currency: "USD",
    timeZone: "UTC",
    matchPolicy: "fill",
  } as const;
  const row = (cells: Record<string, string>) =>
    normalizeRow("donations", { amount: "40.00", donatedAt: "2025-05-01", ...cells }, o);

  it("a yes flag refunds the gift in full, unless an amount says how much", () => {
    expect(ok(row({ refunded: "Yes" })).gift).toMatchObject({ status: "refunded", refundedMinor: 4_000 });
    expect(ok(row({ refunded: "2025-05-09" })).gift).toMatchObject({ status: "refunded" });
    expect(ok(row({ refunded: "No" })).gift).toMatchObject({ status: "completed", refundedMinor: 0 });
    expect(ok(row({ refunded: "yes", refundedAmount: "10.00" })).gift).toMatchObject({
      status: "partially_refunded",
      refundedMinor: 1_000,
    });
    expect(row({ refunded: "maybe" })).toMatchObject({ ok: false });
  });

  it("a negative amount or a refund kind is a refund of the gift it names, never a gift", () => {
    expect(row({ amount: "-25.00", refundOf: "g-1" })).toEqual({
      ok: true,
      donor: null,
      gift: null,
      refund: { externalId: null, of: "g-1", amountMinor: 2_500, currency: "USD" },
    });
    expect(ok(row({ transactionType: "REFUND", amount: "25.00" })).refund).toMatchObject({ of: null });
    expect(ok(row({ transactionType: "DEBIT", amount: "(25.00)" })).refund?.amountMinor).toBe(2_500);
  });

  it("expenses, fees and payouts are skipped with the reason, not refused", () => {
    expect(ok(row({ transactionType: "EXPENSE", amount: "-300" })).skip).toBe("Not a donation: an expense");
    expect(ok(row({ transactionType: "HOST_FEE" })).skip).toBe("Not a donation: a host fee");
    expect(ok(row({ transactionType: "PAYMENT_PROCESSOR_FEE" })).skip).toMatch(/payment processor fee/);
    expect(ok(row({ transactionType: "Payout" })).skip).toBe("Not a donation: a payout");
    expect(row({ transactionType: "CONTRIBUTION" })).toMatchObject({
      ok: true,
      gift: { amountMinor: 4_000 },
    });
  });
});
