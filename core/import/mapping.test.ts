/**
 * Automatic column mapping on the exports a team brings (test/fixtures/imports/): each file's
 * essential columns map to the right fields, the file is recognized, and its essential cells read.
 */
import Papa from "papaparse";
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
import { type ImportField, type ImportKind, importFieldsOf } from "./fields";
import {
  applySavedMapping,
  autoMap,
  columnZones,
  detectSource,
  FIELD_SYNONYMS,
  firstRowLooksLikeData,
  headerTimeZone,
  mappingToSave,
  normalizeHeader,
} from "./mapping";
import { detectDateOrder, detectDecimal, parseAmount, parseDate } from "./values";

/** The file as the page reads it with Papa: its header row, its records, and the header of each field. */
function mapped(kind: ImportKind, text: string) {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  const headers = parsed.meta.fields ?? [];
  const m = autoMap(kind, headers);
  const by: Partial<Record<ImportField, string>> = {};
  m.forEach((f, i) => {
    if (f) by[f] = headers[i] as string;
  });
  const column = (f: ImportField) => (by[f] ? parsed.data.map((r) => r[by[f] as string] ?? "") : []);
  return { by, headers, m, rows: parsed.data, column };
}

/**
 * Every row's amount and date through the parsers, with the file's own decimal mark and day order,
 * in the row's currency: the value, or the row's problem.
 */
function readGifts(text: string) {
  const { column } = mapped("donations", text);
  const decimal = detectDecimal(column("amount")) ?? "auto";
  const order = detectDateOrder(column("donatedAt")).order ?? "auto";
  const currencies = column("currency");
  const times = column("donatedTime");
  return column("amount").map((cell, i) => {
    const a = parseAmount(cell, { decimal, currency: currencies[i]?.trim() || "USD" });
    const when = times[i] ? `${column("donatedAt")[i]} ${times[i]}` : (column("donatedAt")[i] as string);
    const d = parseDate(when, { order, timeZone: "UTC" });
    if (!a.ok) return a.problem;
    if (!d.ok) return d.problem;
    return `${a.value.minor} ${new Date(d.value).toISOString()}`;
  });
}

describe("automatic mapping of real exports", () => {
  it("GiveWP: the donation's and donor's ids, the total, the form as the campaign", () => {
    const { by, m } = mapped("donations", givewp);
    expect(by).toEqual({
      giftExternalId: "Donation ID",
      firstName: "First Name",
      lastName: "Last Name",
      email: "Email Address",
      company: "Company Name",
      addressLine1: "Address 1",
      addressLine2: "Address 2",
      city: "City",
      region: "State",
      postalCode: "Zip",
      country: "Country",
      message: "Donor Comment",
      amount: "Donation Total",
      currency: "Currency Code",
      status: "Donation Status",
      gateway: "Payment Gateway",
      mode: "Payment Mode",
      campaign: "Form Title",
      donatedAt: "Donation Date",
      donatedTime: "Donation Time",
      donorExternalId: "Donor ID",
      internalNote: "Donation Note (private)",
    });
    // "Donation Number", "Form ID", "Level Title", "Currency Symbol" go nowhere.
    expect(m.filter((f) => f === null)).toHaveLength(5);
    expect(detectSource(mapped("donations", givewp).headers)).toEqual({ id: "givewp", label: "GiveWP" });
  });

  it("Donorbox: the donor's own name columns, the comment, fees and the processor", () => {
    const { by } = mapped("donations", donorbox);
    expect(by).toMatchObject({
      firstName: "Donor's First Name",
      lastName: "Donor's Last Name",
      company: "Donating Company",
      email: "Donor Email",
      anonymous: "Make Donation Anonymous",
      campaign: "Campaign",
      amount: "Amount",
      currency: "Currency",
      processingFee: "Processing Fee",
      message: "Donor Comment",
      internalNote: "Internal Notes",
      donatedAt: "Donated At",
      region: "State / Province",
      giftExternalId: "Receipt Id",
      gateway: "Donation Type",
      paymentMethod: "Card Type",
      transactionId: "Stripe Charge Id",
      frequency: "Recurring Donation",
      emailOptIn: "Join Mailing List",
      tributeType: "Dedication Type",
      tributeName: "Honoree Name",
      donorExternalId: "Donor Id",
    });
    // The full "Name" is a label ("Anonymous Friend"); net, converted and platform amounts go nowhere.
    expect(by.name).toBeUndefined();
    expect(Object.values(by)).not.toContain("Net Amount");
    expect(Object.values(by)).not.toContain("Amount in USD");
    expect(detectSource(mapped("donations", donorbox).headers)).toEqual({
      id: "donorbox",
      label: "Donorbox",
    });
  });

  it("Bloomerang constituents: the type says which names are organizations", () => {
    const { by } = mapped("donors", bloomerangConstituents);
    expect(by).toEqual({
      donorExternalId: "Account Number",
      donorType: "Type",
      name: "Name",
      firstName: "First Name",
      lastName: "Last Name",
      email: "Email Address",
      phone: "Phone Number",
      addressLine1: "Street",
      city: "City",
      region: "State",
      postalCode: "Zip Code",
      country: "Country",
      emailOptIn: "Email Opt In",
    });
    expect(detectSource(mapped("donors", bloomerangConstituents).headers)?.id).toBe("bloomerang");
  });

  it("Bloomerang transactions: the gift's type is not the donor's, and Campaign beats Fund", () => {
    const { by } = mapped("donations", bloomerangTransactions);
    expect(by).toEqual({
      donorExternalId: "Account Number",
      name: "Name",
      email: "Email Address",
      giftExternalId: "Transaction Number",
      donatedAt: "Date",
      amount: "Amount",
      paymentMethod: "Method",
      campaign: "Campaign",
      internalNote: "Note",
    });
    expect(detectSource(mapped("donations", bloomerangTransactions).headers)?.label).toBe("Bloomerang");
  });

  it("Stripe payments: id is the charge, refunds, fees and the card holder", () => {
    const { by } = mapped("donations", stripe);
    expect(by).toMatchObject({
      transactionId: "id",
      donatedAt: "Created (UTC)",
      amount: "Amount",
      refundedAmount: "Amount Refunded",
      currency: "Currency",
      processingFee: "Fee",
      mode: "Mode",
      status: "Status",
      donorExternalId: "Customer ID",
      email: "Customer Email",
      name: "Card Name",
      paymentMethod: "Card Brand",
      addressLine1: "Card Address Line1",
      addressLine2: "Card Address Line2",
      city: "Card Address City",
      region: "Card Address State",
      country: "Card Address Country",
      postalCode: "Card Address Zip",
    });
    expect(by.giftExternalId).toBeUndefined();
    expect(Object.values(by)).not.toContain("Converted Amount");
    expect(Object.values(by)).not.toContain("Card Issue Country");
    expect(detectSource(mapped("donations", stripe).headers)?.label).toBe("Stripe");
  });

  it("Salesforce NPSP: the opportunity, its stage and close date, the contact's names", () => {
    const { by } = mapped("donations", npsp);
    expect(by).toEqual({
      giftExternalId: "Opportunity ID",
      firstName: "Contact: First Name",
      lastName: "Contact: Last Name",
      email: "Contact: Email",
      addressLine1: "Mailing Street",
      city: "Mailing City",
      region: "Mailing State/Province",
      postalCode: "Mailing Zip/Postal Code",
      country: "Mailing Country",
      amount: "Amount",
      donatedAt: "Close Date",
      status: "Stage",
      campaign: "Primary Campaign Source",
      paymentMethod: "Payment Method",
      internalNote: "Description",
    });
    expect(detectSource(mapped("donations", npsp).headers)?.label).toBe("Salesforce NPSP");
  });

  it("Open Collective: the contributor is the opposite account, the collective the campaign", () => {
    const { by } = mapped("donations", opencollective);
    expect(by).toEqual({
      donatedAt: "datetime",
      giftExternalId: "id",
      amount: "amount",
      processingFee: "paymentProcessorFee",
      // The gift's own flag: a refund row's "isRefund" says it is the refund.
      refunded: "isRefunded",
      currency: "currency",
      campaign: "accountName",
      donorExternalId: "oppositeAccountSlug",
      name: "oppositeAccountName",
      donorType: "oppositeAccountType",
      email: "oppositeAccountEmail",
      gateway: "paymentMethodService",
      paymentMethod: "paymentMethodType",
      message: "orderMemo",
    });
    expect(detectSource(mapped("donations", opencollective).headers)?.label).toBe("Open Collective");
  });

  it("CiviCRM: the contribution, its status and date, the contact", () => {
    const { by } = mapped("donations", civicrm);
    expect(by).toEqual({
      donorExternalId: "Contact ID",
      giftExternalId: "Contribution ID",
      firstName: "First Name",
      lastName: "Last Name",
      email: "Email",
      addressLine1: "Street Address",
      city: "City",
      region: "State",
      postalCode: "Postal Code",
      country: "Country",
      amount: "Total Amount",
      currency: "Currency",
      donatedAt: "Contribution Date",
      status: "Contribution Status",
      paymentMethod: "Payment Method",
      transactionId: "Transaction ID",
      campaign: "Campaign",
    });
    expect(detectSource(mapped("donations", civicrm).headers)?.label).toBe("CiviCRM");
  });
});

describe("each export's amounts and dates read in its own formats", () => {
  it("GiveWP: grouped totals, WordPress dates and a separate time of day", () => {
    expect(readGifts(givewp)).toEqual([
      "125000 2025-03-14T09:41:00.000Z",
      "2500 2025-03-15T14:05:00.000Z",
      "5000 2025-03-16T11:20:00.000Z",
      "1000 2025-03-16T11:25:00.000Z",
      "50000 2025-03-18T08:00:00.000Z",
      "500 2025-03-19T19:15:00.000Z",
      "1000 2025-03-20T23:59:00.000Z",
      "200000 2025-04-01T00:00:00.000Z",
    ]);
  });

  it("Donorbox: offsets in the dates, whole amounts", () => {
    expect(readGifts(donorbox)).toEqual([
      "5000 2025-04-02T08:15:00.000Z",
      "2000 2025-04-03T17:02:11.000Z",
      "100000 2025-04-05T13:00:00.000Z",
      "1500 2025-04-06T16:30:00.000Z",
      "25000 2025-04-07T06:00:00.000Z",
      "10000 2025-04-08T11:45:00.000Z",
    ]);
  });

  it("Stripe: a yen charge is whole yen", () => {
    expect(readGifts(stripe).slice(-2)).toEqual([
      "6000 2025-05-06T11:11:11.000Z",
      "5000 2025-05-07T02:30:00.000Z",
    ]);
  });

  it("NPSP: month-first dates, symbols and an ISO code in the amount", () => {
    expect(readGifts(npsp)).toEqual([
      "100000 2025-06-02T12:00:00.000Z",
      "25000 2025-06-03T12:00:00.000Z",
      "500000 2025-06-30T12:00:00.000Z",
      "7500 2025-06-05T12:00:00.000Z",
      "250000 2025-06-10T12:00:00.000Z",
      "120000 2025-01-05T12:00:00.000Z",
    ]);
  });

  it("Open Collective: a refund's negative amount is refused, not imported as a gift", () => {
    expect(readGifts(opencollective)[3]).toBe(
      'Negative amounts are not donations ("-100.00"); import refunds with the refunded amount',
    );
    expect(readGifts(opencollective)[4]).toBe("25000 2025-07-06T15:45:00.000Z");
  });

  it("CiviCRM in a French locale: decimal commas, spaces between thousands", () => {
    expect(detectDecimal(mapped("donations", civicrm).column("amount"))).toBe(",");
    expect(readGifts(civicrm)).toEqual([
      "120000 2025-02-10T14:00:00.000Z",
      "4550 2025-02-11T09:30:00.000Z",
      "10000 2025-03-01T10:00:00.000Z",
      "30000 2025-03-02T11:00:00.000Z",
      "123450 2025-03-03T16:45:00.000Z",
      "2500 2025-03-04T08:05:00.000Z",
    ]);
  });

  it("Bloomerang: month-first dates, dollars with and without cents", () => {
    expect(readGifts(bloomerangTransactions)).toEqual([
      "10000 2025-01-15T12:00:00.000Z",
      "10000 2025-02-15T12:00:00.000Z",
      "250000 2025-02-20T12:00:00.000Z",
      "3550 2025-03-01T12:00:00.000Z",
      "100000 2024-12-31T12:00:00.000Z",
      "5000 2025-01-02T12:00:00.000Z",
    ]);
  });
});

describe("the same systems' other header spellings", () => {
  it("Open Collective's dashboard export names its columns in words", () => {
    const headers = [
      "Date & Time",
      "Transaction ID",
      "Credit/Debit",
      "Kind",
      "Amount Single Column",
      "Currency",
      "Account Handle",
      "Account Name",
      "Opposite Account Handle",
      "Opposite Account Name",
      "Payment Processor",
      "Payment Method",
      "Contribution Memo",
      "Merchant ID",
      "Payment Processor Fee",
    ];
    expect(detectSource(headers)?.id).toBe("opencollective");
    expect(autoMap("donations", headers)).toEqual([
      "donatedAt",
      "giftExternalId",
      null,
      null,
      // The single column is the net amount: the gift's amount is not in this export.
      null,
      "currency",
      null,
      "campaign",
      "donorExternalId",
      "name",
      "gateway",
      "paymentMethod",
      "message",
      "transactionId",
      "processingFee",
    ]);
  });

  it("Salesforce API names from Data Loader and the NPSP data import object", () => {
    const loader = ["ID", "NAME", "AMOUNT", "CLOSEDATE", "STAGENAME", "DESCRIPTION"];
    expect(detectSource(loader)?.id).toBe("npsp");
    expect(autoMap("donations", loader)).toEqual([
      "giftExternalId",
      null,
      "amount",
      "donatedAt",
      "status",
      "internalNote",
    ]);
    const dataImport = [
      "npsp__Contact1_Firstname__c",
      "npsp__Contact1_Lastname__c",
      "npsp__Contact1_Personal_Email__c",
      "npsp__Account1_Name__c",
      "npsp__Donation_Amount__c",
      "npsp__Donation_Date__c",
      "npsp__Donation_Stage__c",
      "npsp__Donation_Campaign_Name__c",
      "npsp__Payment_Method__c",
      "npsp__Donation_Donor__c",
    ];
    expect(detectSource(dataImport)?.id).toBe("npsp");
    expect(autoMap("donations", dataImport)).toEqual([
      "firstName",
      "lastName",
      "email",
      "company",
      "amount",
      "donatedAt",
      "status",
      "campaign",
      "paymentMethod",
      null,
    ]);
  });

  it("Stripe's newer payments export and GiveWP's older form title", () => {
    const newer = [
      "id",
      "Created date (UTC)",
      "Amount",
      "Amount Refunded",
      "Currency",
      "Status",
      "Customer Email",
    ];
    expect(detectSource(newer)?.id).toBe("stripe");
    expect(autoMap("donations", newer)).toEqual([
      "transactionId",
      "donatedAt",
      "amount",
      "refundedAmount",
      "currency",
      "status",
      "email",
    ]);
    expect(detectSource(["Donation ID", "Donation Form Title", "Donation Total"])?.id).toBe("givewp");
  });

  it("Stripe's unified payments: the customer's name, not the card's, is the donor's (issue 55)", () => {
    const headers = ["id", "Created date (UTC)", "Amount", "Customer Name", "Customer Email", "Card Name"];
    expect(autoMap("donations", headers)).toEqual([
      "transactionId",
      "donatedAt",
      "amount",
      "name",
      "email",
      null,
    ]);
    // The older export, without the customer's name, still takes the card's.
    expect(mapped("donations", stripe).by.name).toBe("Card Name");
  });
});

describe("mapping rules", () => {
  it("maps only the kind's fields, each field once, and never two columns to one field", () => {
    const { by, m } = mapped("donors", givewp);
    expect(by.amount).toBeUndefined();
    expect(by.giftExternalId).toBeUndefined();
    const allowed = new Set<ImportField | null>([...importFieldsOf("donors"), null]);
    expect(m.every((f) => allowed.has(f))).toBe(true);
    for (const text of [givewp, donorbox, stripe, npsp, opencollective, civicrm, bloomerangTransactions]) {
      const fields = mapped("donations", text).m.filter(Boolean);
      expect(new Set(fields).size).toBe(fields.length);
    }
  });

  it("prefers a header that is a synonym to one that only contains it, then the earlier synonym", () => {
    expect(autoMap("donations", ["Gift Amount (USD)", "Amount"])).toEqual([null, "amount"]);
    expect(autoMap("donations", ["Fund", "Campaign"])).toEqual([null, "campaign"]);
    expect(autoMap("donations", ["Email", "Email"])).toEqual(["email", null]);
    expect(autoMap("donations", ["Amount (USD)", "Email (Primary)", "Billing Email"])).toEqual([
      "amount",
      "email",
      null,
    ]);
  });

  it("leaves a full-name column out beside first and last names, unless a type tells organizations", () => {
    expect(autoMap("donors", ["Name", "First Name", "Last Name"])).toEqual([null, "firstName", "lastName"]);
    expect(autoMap("donors", ["Name", "First Name", "Last Name", "Donor Type"])).toEqual([
      "name",
      "firstName",
      "lastName",
      "donorType",
    ]);
    expect(autoMap("donors", ["Name", "Last Name"])).toEqual(["name", "lastName"]);
  });

  it("does not read a header about something else as the field its last word names", () => {
    const headers = [
      "Email",
      "Do Not Email",
      "Event Name",
      "Test Mode",
      "Last Gift Date",
      "Birth Date",
      "Net Amount",
      "Donor IP Address",
      "Email Greeting",
      "Account Status",
      "Date",
    ];
    expect(autoMap("donations", headers)).toEqual([
      "email",
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      "donatedAt",
    ]);
    // A plain file's "ID" is the row's own id in the old system.
    expect(autoMap("donations", ["ID", "Amount"])).toEqual(["giftExternalId", "amount"]);
    expect(autoMap("donors", ["ID", "Email"])).toEqual(["donorExternalId", "email"]);
  });

  it("maps a plain English file and recognizes no system in it", () => {
    const headers = ["Donor Name", "E-mail", "Gift Amount", "Gift Date", "Payment Type", "Notes", "Zip Code"];
    expect(autoMap("donations", headers)).toEqual([
      "name",
      "email",
      "amount",
      "donatedAt",
      "paymentMethod",
      "internalNote",
      "postalCode",
    ]);
    expect(detectSource(headers)).toBeNull();
    expect(detectSource(["Name", "Email", "Amount", "Date"])).toBeNull();
  });

  it("lists synonyms for every field", () => {
    for (const f of importFieldsOf("donations")) expect(FIELD_SYNONYMS[f].length, f).toBeGreaterThan(0);
  });
});

describe("headers and saved mappings", () => {
  it("normalizes a header: BOM, case, accents, punctuation and Salesforce's suffix", () => {
    expect(normalizeHeader("\uFEFFDonor  E-mail (primary)")).toBe("donor e mail primary");
    expect(normalizeHeader("Währung_Code")).toBe("wahrung code");
    expect(normalizeHeader("npsp__Donation_Amount__c")).toBe("npsp donation amount");
    expect(normalizeHeader("  Created (UTC) ")).toBe("created utc");
  });

  it("apply by header name, whatever the column order, and ignore what the kind lacks", () => {
    const headers = ["Email", "Gift", "When", "Extra"];
    const saved = mappingToSave(headers, ["email", "amount", "donatedAt", null]);
    expect(saved).toEqual({ email: "email", gift: "amount", when: "donatedAt" });
    expect(applySavedMapping("donations", ["WHEN", "e-mail", "Gift", "Email"], saved)).toEqual([
      "donatedAt",
      null,
      "amount",
      "email",
    ]);
    expect(applySavedMapping("donors", ["When", "Gift", "Email"], saved)).toEqual([null, null, "email"]);
    expect(applySavedMapping("donors", ["constructor"], saved)).toEqual([null]);
  });
});

describe("the zone a time column's header names (issue 55)", () => {
  it("is UTC for UTC or GMT as a word, and nothing for an offset or another word", () => {
    for (const h of ["Created date (UTC)", "Created (UTC)", "created_at_utc", "Date UTC", "Time (GMT)"])
      expect(headerTimeZone(h), h).toBe("UTC");
    for (const h of ["Donation Date", "Date (GMT+2)", "GMT 1 Date", "Outcome", "Gmtime"])
      expect(headerTimeZone(h), h).toBeNull();
  });

  it("belongs to the mapped time fields only", () => {
    expect(
      columnZones(["Created (UTC)", "Refunded date (UTC)", "Time (UTC)"], ["donatedAt", null, "donatedTime"]),
    ).toEqual({ donatedAt: "UTC", donatedTime: "UTC" });
    expect(columnZones(["Note (UTC)", "Date"], ["internalNote", "donatedAt"])).toEqual({});
  });
});

describe("a yes/no recurring column (issue 55)", () => {
  it("is the Recurring (yes/no) flag by its values; an interval column stays the frequency", () => {
    const parsed = Papa.parse<string[]>(givewpRecurring.trim());
    const [headers, ...sample] = parsed.data as string[][];
    const m = autoMap("donations", headers as string[], sample);
    expect(m[(headers as string[]).indexOf("Recurring Donation")]).toBe("recurring");
    expect(m).not.toContain("frequency");
    // Donorbox's column of the same name holds intervals ("Monthly").
    const donorboxRows = Papa.parse<string[]>(donorbox.trim()).data as string[][];
    const [dh, ...ds] = donorboxRows;
    expect(autoMap("donations", dh as string[], ds)[(dh as string[]).indexOf("Recurring Donation")]).toBe(
      "frequency",
    );
  });
});

describe("a first row that is data (issue 55)", () => {
  it("is proposed when a cell holds an e-mail, a date or an amount and none is a column name", () => {
    expect(
      firstRowLooksLikeData(["Jürgen Müller", "juergen.mueller@example.de", "Klimafonds", "50,00"]),
    ).toBe(true);
    expect(firstRowLooksLikeData(["Lena", "Fischer", "02.04.2025 10:15"])).toBe(true);
    expect(firstRowLooksLikeData(["Pat", "Lee", "$75.00"])).toBe(true);
  });

  it("is not proposed for a header, even one beside a value, nor for words alone", () => {
    for (const text of [donorbox, givewp, stripe, civicrm, npsp, opencollective]) {
      const [head] = Papa.parse<string[]>(text, { preview: 1 }).data;
      expect(firstRowLooksLikeData(head as string[])).toBe(false);
    }
    expect(firstRowLooksLikeData(["Email", "pat@example.org"])).toBe(false);
    expect(firstRowLooksLikeData(["Pat Lee", "Winter Appeal"])).toBe(false);
  });
});

describe("refund columns by their cells (issue 55)", () => {
  it("a yes/no or dated Refunded is the flag, an amount the refunded amount; a ledger's kind", () => {
    const map = (headers: string[], cells: string[][]) => autoMap("donations", headers, cells);
    expect(map(["Amount", "Date", "Refunded"], [["5", "2025-01-01", "Yes"]])[2]).toBe("refunded");
    expect(map(["Amount", "Date", "Refund"], [["5", "2025-01-01", "2025-02-01"]])[2]).toBe("refunded");
    expect(map(["Amount", "Date", "Refunded"], [["5", "2025-01-01", "2.50"]])[2]).toBe("refundedAmount");
    expect(map(["Amount", "Date", "kind"], [["5", "2025-01-01", "HOST_FEE"]])[2]).toBe("transactionType");
    expect(map(["Amount", "Date", "type"], [["5", "2025-01-01", "DEBIT"]])[2]).toBe("transactionType");
    expect(map(["Amount", "Date", "type"], [["5", "2025-01-01", "Individual"]])[2]).not.toBe(
      "transactionType",
    );
  });
});
