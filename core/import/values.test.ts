/**
 * One cell into a stored value (issue 23): amounts as locales write them, dates in ISO, US and
 * European order across zones and DST, names, and the vocabularies of the systems a team leaves.
 */
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import {
  AMBIGUOUS_DATES,
  AMOUNTS,
  EUROPEAN_DATES,
  NAME_ONLY,
  US_DATES,
} from "../../test/fixtures/imports/awkward";
import {
  detectDateOrder,
  detectDecimal,
  isBlank,
  parseAmount,
  parseBoolean,
  parseCountry,
  parseDate,
  parseDonorType,
  parseFrequency,
  parseMode,
  parsePaymentMethod,
  parseStatus,
  parseTributeType,
  splitName,
} from "./values";

const amount = (text: string, currency = "USD", decimal: "auto" | "." | "," = "auto") => {
  const r = parseAmount(text, { decimal, currency });
  return r.ok ? r.value : r.problem;
};
const value = <T>(r: { ok: true; value: T } | { ok: false; problem: string }) => (r.ok ? r.value : r.problem);
/** A fixture's rows by header, as Papa reads them. */
const records = (text: string) =>
  Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

describe("amounts", () => {
  it("reads symbols and ISO codes on either side, and says which currency the cell names", () => {
    expect(amount("25")).toEqual({ minor: 2500, currency: null });
    expect(amount("$1,234.56")).toEqual({ minor: 123456, currency: null });
    expect(amount("€1.234,56")).toEqual({ minor: 123456, currency: "EUR" });
    expect(amount("1.234,56 €")).toEqual({ minor: 123456, currency: "EUR" });
    expect(amount("£0.99")).toEqual({ minor: 99, currency: "GBP" });
    expect(amount("₹500")).toEqual({ minor: 50000, currency: "INR" });
    expect(amount("Rs. 500")).toEqual({ minor: 50000, currency: "INR" });
    expect(amount("R$ 10,00")).toEqual({ minor: 1000, currency: "BRL" });
    expect(amount("CHF 1'234.50")).toEqual({ minor: 123450, currency: "CHF" });
    expect(amount("USD 25")).toEqual({ minor: 2500, currency: "USD" });
    expect(amount("25.00 EUR")).toEqual({ minor: 2500, currency: "EUR" });
    expect(amount("25.00 gbp")).toEqual({ minor: 2500, currency: "GBP" });
    expect(amount("US$ 40")).toEqual({ minor: 4000, currency: "USD" });
    // Yen: the other yen-sign currency (CNY) is not one the platform takes.
    expect(amount("¥1,000", "USD")).toEqual({ minor: 1000, currency: "JPY" });
    // "$" and "kr" name several currencies: the row's currency column or the import's default decides.
    expect(amount("$ 5", "CAD")).toEqual({ minor: 500, currency: null });
    expect(amount("100 kr", "SEK")).toEqual({ minor: 10000, currency: null });
    expect(amount("kr. 100,50", "DKK")).toEqual({ minor: 10050, currency: null });
  });

  it("reads every local way of grouping thousands and marking decimals", () => {
    expect(amount("1,234.56")).toEqual({ minor: 123456, currency: null });
    expect(amount("1.234,56")).toEqual({ minor: 123456, currency: null });
    expect(amount("1234,56")).toEqual({ minor: 123456, currency: null });
    expect(amount("12,5")).toEqual({ minor: 1250, currency: null });
    expect(amount("1 234,56")).toEqual({ minor: 123456, currency: null });
    expect(amount("1\u00a0234,56\u202f€")).toEqual({ minor: 123456, currency: "EUR" });
    expect(amount("1\u202f234.56")).toEqual({ minor: 123456, currency: null });
    expect(amount("1'234.50")).toEqual({ minor: 123450, currency: null });
    expect(amount("1’234.50")).toEqual({ minor: 123450, currency: null });
    expect(amount("1,234,567.89")).toEqual({ minor: 123456789, currency: null });
    expect(amount("1.234.567")).toEqual({ minor: 123456700, currency: null });
    expect(amount(".50")).toEqual({ minor: 50, currency: null });
    // "0.500" cannot be a thousand: a group never starts with 0.
    expect(amount("0.500")).toEqual({ minor: 50, currency: null });
    expect(amount("+10.10")).toEqual({ minor: 1010, currency: null });
    expect(amount("+$10")).toEqual({ minor: 1000, currency: null });
    expect(amount('  "7.00" ')).toEqual({ minor: 700, currency: null });
    expect(amount("0")).toEqual({ minor: 0, currency: null });
    expect(amount("0.00")).toEqual({ minor: 0, currency: null });
  });

  it("uses the decimals of the cell's own currency, else the import's", () => {
    expect(amount("1,000", "JPY")).toEqual({ minor: 1000, currency: null });
    expect(amount("1000", "JPY")).toEqual({ minor: 1000, currency: null });
    expect(amount("¥1.000", "EUR")).toEqual({ minor: 1000, currency: "JPY" });
    expect(amount("10.5", "JPY")).toBe('"10.5" has more decimals than JPY has (0)');
    expect(amount("10.00", "JPY")).toEqual({ minor: 10, currency: null });
    expect(amount("1.250", "KWD", ".")).toEqual({ minor: 1250, currency: null });
    expect(amount("9.999", "USD", ".")).toBe('"9.999" has more decimals than USD has (2)');
    expect(amount("9.999 KWD", "USD", ".")).toEqual({ minor: 9999, currency: "KWD" });
  });

  it("asks which mark a lone separator before three digits is, unless the currency has no decimals", () => {
    expect(amount("12.345")).toBe(
      'Ambiguous amount "12.345": choose whether "." separates thousands or decimals',
    );
    expect(amount("1,234")).toMatch(/^Ambiguous amount "1,234"/);
    expect(amount("1,250", "KWD")).toMatch(/^Ambiguous amount/);
    expect(amount("12.345", "USD", ",")).toEqual({ minor: 1234500, currency: null });
    expect(amount("1,234", "USD", ".")).toEqual({ minor: 123400, currency: null });
    expect(amount("1,234", "USD", ",")).toBe('"1,234" has more decimals than USD has (2)');
  });

  it("refuses negatives, words, two currencies and malformed numbers with a reason", () => {
    for (const negative of ["-5", "-5.00", "(5.00)", "-$5", "$-5", "5-", "\u22125", "€ -12,50", "USD -3"])
      expect(amount(negative), negative).toMatch(
        /^Negative amounts are not donations \(".*"\); import refunds/,
      );
    expect(amount("lots")).toBe('"lots" is not an amount');
    expect(amount("TBD")).toBe('"TBD" is not an amount');
    expect(amount("12,3,4")).toBe('"12,3,4" is not an amount');
    expect(amount("1,23,456.00")).toBe('"1,23,456.00" is not an amount');
    expect(amount("1.234,56", "USD", ".")).toBe('"1.234,56" is not an amount');
    expect(amount("12,5", "USD", ".")).toBe('"12,5" is not an amount');
    expect(amount("1e5")).toBe('"1e5" is not an amount');
    expect(amount("€5 USD")).toBe('"€5 USD" names two currencies');
    expect(amount("XYZ 5")).toBe("Currency XYZ is not supported");
    expect(amount("12345678901234567")).toBe('"12345678901234567" is too large');
    expect(amount("")).toBe("No amount");
    expect(isBlank("  ")).toBe(true);
    expect(isBlank(" 0 ")).toBe(false);
  });

  it("reads the amounts fixture row by row", () => {
    const got = records(AMOUNTS).map((r) => amount(r.Amount as string));
    expect(got).toEqual([
      { minor: 123456, currency: null },
      { minor: 123456, currency: "EUR" },
      { minor: 123456, currency: "EUR" },
      { minor: 123450, currency: "CHF" },
      { minor: 2500, currency: "USD" },
      { minor: 2500, currency: "GBP" },
      { minor: 1000, currency: "BRL" },
      { minor: 1000, currency: "JPY" },
      'Negative amounts are not donations ("(5.00)"); import refunds with the refunded amount',
    ]);
  });

  it("works out a column's decimal mark from the values that tell, or says it cannot", () => {
    expect(detectDecimal(["1,234.56", "12.00"])).toBe(".");
    expect(detectDecimal(["1.234,56", "12,00"])).toBe(",");
    expect(detectDecimal(["1,234", "5,678", "25"])).toBeNull();
    expect(detectDecimal(["1.234.567", "10"])).toBe(",");
    expect(detectDecimal(["1,234", "12.5"])).toBe(".");
    expect(detectDecimal(["1.234", "12,5"])).toBe(",");
    expect(detectDecimal(["0.500"])).toBe(".");
    expect(detectDecimal(["€ 1 234,50", "USD 3.00"])).toBeNull();
    expect(detectDecimal(["12.50", "12,50"])).toBeNull();
    expect(detectDecimal([])).toBeNull();
  });
});

const at = (text: string, timeZone = "UTC", order: "auto" | "mdy" | "dmy" | "ymd" = "auto") => {
  const r = parseDate(text, { order, timeZone });
  return r.ok ? new Date(r.value).toISOString() : r.problem;
};

describe("dates", () => {
  it("reads ISO dates and date-times, with offsets and fractions of a second", () => {
    expect(at("2024-03-05")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("2024-03-05T14:22:10Z")).toBe("2024-03-05T14:22:10.000Z");
    expect(at("2024-03-05T14:22:10.123456Z")).toBe("2024-03-05T14:22:10.123Z");
    expect(at("2024-03-05 14:22:10")).toBe("2024-03-05T14:22:10.000Z");
    expect(at("2024-03-05T14:22:10+01:00")).toBe("2024-03-05T13:22:10.000Z");
    expect(at("2024-03-05 14:22:10.5 +0100")).toBe("2024-03-05T13:22:10.500Z");
    expect(at("2024-03-05T09:22-05")).toBe("2024-03-05T14:22:00.000Z");
    expect(at("2024/03/05")).toBe("2024-03-05T12:00:00.000Z");
  });

  it("reads numeric day/month dates with slashes, dots or dashes, two- or four-digit years, and times", () => {
    expect(at("03/25/2024")).toBe("2024-03-25T12:00:00.000Z");
    expect(at("25.03.2024")).toBe("2024-03-25T12:00:00.000Z");
    expect(at("5.3.2024", "UTC", "dmy")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("05-03-24", "UTC", "dmy")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("3/5/24", "UTC", "mdy")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("24/03/05", "UTC", "ymd")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("03/25/2024 14:22")).toBe("2024-03-25T14:22:00.000Z");
    expect(at("03/25/2024 2:22 PM")).toBe("2024-03-25T14:22:00.000Z");
    expect(at("03/25/2024 12:05 a.m.")).toBe("2024-03-25T00:05:00.000Z");
    expect(at("25.03.2024 14:22:10")).toBe("2024-03-25T14:22:10.000Z");
    expect(at("03/03/2024")).toBe("2024-03-03T12:00:00.000Z");
  });

  it("reads English month names and Unix timestamps", () => {
    expect(at("Mar 5, 2024")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("5 March 2024")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("March 5th, 2024")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("05-Mar-2024")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("5-Mar-24")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("Sept. 1, 2024")).toBe("2024-09-01T12:00:00.000Z");
    expect(at("Tue, Mar 5, 2024")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("Tuesday 5 March 2024 14:00")).toBe("2024-03-05T14:00:00.000Z");
    expect(at("March 5, 2024 at 2:30 PM")).toBe("2024-03-05T14:30:00.000Z");
    expect(at("1709640000")).toBe("2024-03-05T12:00:00.000Z");
    expect(at("1709640000123")).toBe("2024-03-05T12:00:00.123Z");
  });

  it("puts a date alone at noon and a wall time in the import's zone; a stated zone wins", () => {
    expect(at("2024-03-05", "America/New_York")).toBe("2024-03-05T17:00:00.000Z");
    expect(at("2024-03-05", "Europe/Berlin")).toBe("2024-03-05T11:00:00.000Z");
    expect(at("2024-03-05", "Asia/Tokyo")).toBe("2024-03-05T03:00:00.000Z");
    expect(at("2024-07-04 09:00", "America/New_York")).toBe("2024-07-04T13:00:00.000Z");
    expect(at("2024-01-04 09:00", "America/New_York")).toBe("2024-01-04T14:00:00.000Z");
    expect(at("2024-07-04 09:00", "Europe/Berlin")).toBe("2024-07-04T07:00:00.000Z");
    expect(at("2024-01-04 09:00", "Europe/Berlin")).toBe("2024-01-04T08:00:00.000Z");
    expect(at("07/04/2024 9:00 AM", "Asia/Tokyo", "mdy")).toBe("2024-07-04T00:00:00.000Z");
    expect(at("2024-03-05 09:00 UTC", "Asia/Tokyo")).toBe("2024-03-05T09:00:00.000Z");
    expect(at("2024-03-05T09:00:00Z", "America/New_York")).toBe("2024-03-05T09:00:00.000Z");
    expect(at("2024-03-05T09:00:00+09:00", "Europe/Berlin")).toBe("2024-03-05T00:00:00.000Z");
    // A timestamp is an instant: no zone moves it.
    expect(at("1709640000", "Asia/Tokyo")).toBe("2024-03-05T12:00:00.000Z");
  });

  it("reads wall times across DST: a skipped time as after the jump, a repeated one as the first", () => {
    // New York springs forward at 02:00 on 2025-03-09: 02:30 does not exist, read as 03:30 EDT.
    expect(at("2025-03-09 02:30", "America/New_York")).toBe("2025-03-09T07:30:00.000Z");
    expect(at("03/09/2025 2:30 AM", "America/New_York", "mdy")).toBe("2025-03-09T07:30:00.000Z");
    expect(at("2025-03-09 03:30", "America/New_York")).toBe("2025-03-09T07:30:00.000Z");
    // It falls back at 02:00 on 2025-11-02: 01:30 happens twice, the first (EDT) is taken.
    expect(at("2025-11-02 01:30", "America/New_York")).toBe("2025-11-02T05:30:00.000Z");
    // Berlin the same way round, east of UTC.
    expect(at("2025-03-30 02:30", "Europe/Berlin")).toBe("2025-03-30T01:30:00.000Z");
    expect(at("2025-10-26 02:30", "Europe/Berlin")).toBe("2025-10-26T00:30:00.000Z");
    // Tokyo keeps one offset all year.
    expect(at("2025-03-09 02:30", "Asia/Tokyo")).toBe("2025-03-08T17:30:00.000Z");
    // A date alone on a DST day is the dialog's noon: the day's start plus twelve hours.
    expect(at("2025-03-09", "America/New_York")).toBe("2025-03-09T17:00:00.000Z");
    expect(at("2025-11-02", "America/New_York")).toBe("2025-11-02T16:00:00.000Z");
  });

  it("takes two-digit years 00-69 as 2000s and 70-99 as 1900s", () => {
    expect(at("12/31/69", "UTC", "mdy")).toBe("2069-12-31T12:00:00.000Z");
    expect(at("01/01/70", "UTC", "mdy")).toBe("1970-01-01T12:00:00.000Z");
    expect(at("12/31/99", "UTC", "mdy")).toBe("1999-12-31T12:00:00.000Z");
  });

  it("asks when the day order cannot be told, and refuses what is not a day", () => {
    expect(at("03/04/2024")).toBe(
      'Ambiguous date "03/04/2024": choose whether the day or the month comes first',
    );
    expect(at("5.3.24")).toMatch(/^Ambiguous date/);
    expect(at("02/30/2024", "UTC", "mdy")).toBe('"02/30/2024" is not a day of the calendar');
    expect(at("02/30/2024")).toBe('"02/30/2024" is not a day of the calendar');
    expect(at("2025-02-29")).toBe('"2025-02-29" is not a day of the calendar');
    expect(at("2024-02-29")).toBe("2024-02-29T12:00:00.000Z");
    expect(at("2024-13-01")).toBe('"2024-13-01" is not a day of the calendar');
    expect(at("31/31/2024")).toBe('"31/31/2024" is not a date');
    expect(at("Smarch 5, 2024")).toBe('"Smarch 5, 2024" is not a date');
    expect(at("soon")).toBe('"soon" is not a date');
    expect(at("03/25/2024 25:00")).toBe('"03/25/2024 25:00" has a time that is not one');
    expect(at("03/25/2024 13:00 PM")).toBe('"03/25/2024 13:00 PM" has a time that is not one');
    expect(at(" ")).toBe("No date");
  });

  it("works out a column's day order from the values that tell", () => {
    expect(detectDateOrder(["01/02/2024", "13/02/2024"])).toEqual({ order: "dmy", ambiguous: false });
    expect(detectDateOrder(["01/02/2024", "02/13/2024 3:00 PM"])).toEqual({ order: "mdy", ambiguous: false });
    expect(detectDateOrder(["2024-01-02", "2024-02-13T10:00:00Z"])).toEqual({
      order: "ymd",
      ambiguous: false,
    });
    expect(detectDateOrder(["01/02/2024", "03/04/2024"])).toEqual({ order: null, ambiguous: true });
    expect(detectDateOrder(["03/03/2024", "04/04/2024"])).toEqual({ order: null, ambiguous: false });
    expect(detectDateOrder(["13/02/2024", "02/13/2024"])).toEqual({ order: null, ambiguous: false });
    expect(detectDateOrder(["Mar 5, 2024", "1709640000", ""])).toEqual({ order: null, ambiguous: false });
    expect(detectDateOrder(["2024-01-02", "13.02.2024"])).toEqual({ order: "dmy", ambiguous: false });
  });

  it("reads the US, European and ambiguous date fixtures", () => {
    const us = records(US_DATES).map((r) => r.Date as string);
    expect(detectDateOrder(us)).toEqual({ order: "mdy", ambiguous: false });
    expect(us.map((d) => at(d, "UTC", "mdy"))).toEqual([
      "2025-01-31T14:05:00.000Z",
      "2025-02-03T12:00:00.000Z",
      "2024-12-25T21:40:00.000Z",
    ]);
    const eu = Papa.parse<Record<string, string>>(EUROPEAN_DATES, {
      header: true,
      skipEmptyLines: true,
    }).data.map((r) => r.Datum as string);
    expect(detectDateOrder(eu)).toEqual({ order: "dmy", ambiguous: false });
    expect(eu.map((d) => at(d, "Europe/Berlin", "dmy"))).toEqual([
      "2025-01-31T11:00:00.000Z",
      "2025-03-05T11:00:00.000Z",
      "2025-02-13T07:15:00.000Z",
    ]);
    const unclear = records(AMBIGUOUS_DATES).map((r) => r.Date as string);
    expect(detectDateOrder(unclear)).toEqual({ order: null, ambiguous: true });
    expect(at(unclear[0] as string)).toMatch(/^Ambiguous date/);
    expect(at(unclear[2] as string)).toBe("2025-07-07T12:00:00.000Z");
  });
});

describe("names", () => {
  it("splits one name column into first and last", () => {
    expect(splitName("Ada Lovelace")).toEqual({ firstName: "Ada", lastName: "Lovelace" });
    expect(splitName("Lovelace, Ada")).toEqual({ firstName: "Ada", lastName: "Lovelace" });
    expect(splitName("Mary Ann  Evans")).toEqual({ firstName: "Mary Ann", lastName: "Evans" });
    expect(splitName("Cher")).toEqual({ firstName: null, lastName: "Cher" });
    expect(splitName("  ")).toEqual({ firstName: null, lastName: null });
  });

  it("keeps particles with the last name", () => {
    expect(splitName("Ludwig van Beethoven")).toEqual({ firstName: "Ludwig", lastName: "van Beethoven" });
    expect(splitName("Mary Ann de la Cruz")).toEqual({ firstName: "Mary Ann", lastName: "de la Cruz" });
    expect(splitName("Leonardo da Vinci")).toEqual({ firstName: "Leonardo", lastName: "da Vinci" });
    expect(splitName("Osama bin Laden")).toEqual({ firstName: "Osama", lastName: "bin Laden" });
    expect(splitName("van Beethoven, Ludwig")).toEqual({ firstName: "Ludwig", lastName: "van Beethoven" });
    // A particle-like first name stays a first name.
    expect(splitName("Van Morrison")).toEqual({ firstName: "Van", lastName: "Morrison" });
  });

  it("drops titles and credentials, and keeps a generation with the last name", () => {
    expect(splitName("Dr. Grace  Hopper")).toEqual({ firstName: "Grace", lastName: "Hopper" });
    expect(splitName("Mrs Jane Doe")).toEqual({ firstName: "Jane", lastName: "Doe" });
    expect(splitName("Mr. and Mrs. John Smith")).toEqual({ firstName: "John", lastName: "Smith" });
    expect(splitName("Hopper, Dr. Grace")).toEqual({ firstName: "Grace", lastName: "Hopper" });
    expect(splitName("Dr. Smith")).toEqual({ firstName: null, lastName: "Smith" });
    expect(splitName("Martin Luther King Jr.")).toEqual({ firstName: "Martin Luther", lastName: "King Jr." });
    expect(splitName("Martin Luther King, Jr.")).toEqual({
      firstName: "Martin Luther",
      lastName: "King Jr.",
    });
    expect(splitName("King, Martin Luther, Jr.")).toEqual({
      firstName: "Martin Luther",
      lastName: "King Jr.",
    });
    expect(splitName("John Smith III")).toEqual({ firstName: "John", lastName: "Smith III" });
    expect(splitName("Jane Smith, PhD")).toEqual({ firstName: "Jane", lastName: "Smith" });
    expect(splitName("Smith, Jane, MD")).toEqual({ firstName: "Jane", lastName: "Smith" });
  });

  it("reads the single-name-column fixture", () => {
    expect(records(NAME_ONLY).map((r) => splitName(r.Name as string))).toEqual([
      { firstName: "Ada", lastName: "Lovelace" },
      { firstName: "Grace", lastName: "Hopper" },
      { firstName: "Ludwig", lastName: "van Beethoven" },
      { firstName: "Martin Luther", lastName: "King Jr." },
      { firstName: null, lastName: "Cher" },
    ]);
  });
});

describe("yes and no", () => {
  it("reads every way an export says it, and refuses what it cannot read", () => {
    for (const t of ["Yes", "y", "TRUE", "1", "x", "X", "checked", "On", "opt-in", "Opted in", "Subscribed"])
      expect(value(parseBoolean(t)), t).toBe(true);
    for (const f of ["No", "N", "false", "0", "unchecked", "off", "Opt-out", "opted out", "Unsubscribed"])
      expect(value(parseBoolean(f)), f).toBe(false);
    expect(value(parseBoolean("perhaps"))).toBe('"perhaps" is not a known yes or no');
    expect(value(parseBoolean("constructor"))).toBe('"constructor" is not a known yes or no');
  });
});

describe("statuses", () => {
  it("reads GiveWP, Stripe, Donorbox, NPSP, CiviCRM and Open Collective statuses", () => {
    const cases: Record<string, string> = {
      // GiveWP
      Complete: "completed",
      Completed: "completed",
      publish: "completed",
      Pending: "pending",
      Processing: "processing",
      Refunded: "refunded",
      Failed: "failed",
      Cancelled: "cancelled",
      Abandoned: "abandoned",
      Revoked: "cancelled",
      Preapproval: "pending",
      // Stripe
      Paid: "completed",
      Succeeded: "completed",
      "Partially refunded": "partially_refunded",
      Canceled: "cancelled",
      Disputed: "disputed",
      Uncaptured: "pending",
      // NPSP stages
      "Closed Won": "completed",
      "Closed Lost": "failed",
      Pledged: "pending",
      Posted: "completed",
      // CiviCRM
      "Partially paid": "pending",
      Chargeback: "disputed",
      "In Progress": "processing",
      // Open Collective
      PAID: "completed",
      ERROR: "failed",
      PENDING: "pending",
      REFUNDED: "refunded",
      EXPIRED: "failed",
      REJECTED: "failed",
    };
    for (const [text, want] of Object.entries(cases)) expect(value(parseStatus(text)), text).toBe(want);
    expect(value(parseStatus("Maybe"))).toBe('"Maybe" is not a known status');
    expect(value(parseStatus("Prospecting"))).toBe('"Prospecting" is not a known status');
  });
});

describe("frequencies", () => {
  it("reads the intervals, and a no in a Recurring? column as one-time", () => {
    const cases: Record<string, string> = {
      "One-time": "one_time",
      "One Time": "one_time",
      Single: "one_time",
      Once: "one_time",
      No: "one_time",
      Monthly: "monthly",
      month: "monthly",
      "Every month": "monthly",
      Quarterly: "quarterly",
      "3 months": "quarterly",
      Annually: "annually",
      Yearly: "annually",
      year: "annually",
      Annual: "annually",
    };
    for (const [text, want] of Object.entries(cases)) expect(value(parseFrequency(text)), text).toBe(want);
  });

  it("never guesses the interval of a gift that only says it recurs", () => {
    for (const t of ["Yes", "Recurring", "true"])
      expect(value(parseFrequency(t))).toBe(
        `"${t}" says the donation recurs but not how often: import the column as Recurring (yes/no)`,
      );
    expect(value(parseFrequency("Weekly"))).toBe(
      '"Weekly" is not a known frequency (one-time, monthly, quarterly or annually)',
    );
    expect(value(parseFrequency("constructor"))).toMatch(/is not a known frequency/);
  });
});

describe("payment methods", () => {
  it("reads what each system calls them, and keeps anything else as other", () => {
    const cases: Record<string, string> = {
      card: "card",
      "Credit Card": "card",
      Visa: "card",
      Mastercard: "card",
      "American Express": "card",
      AMEX: "card",
      CREDITCARD: "card",
      Stripe: "card",
      Cash: "cash",
      Check: "check",
      Cheque: "check",
      "Bank Transfer": "bank_transfer",
      BANK_TRANSFER: "bank_transfer",
      "Wire transfer": "bank_transfer",
      EFT: "bank_transfer",
      "Direct Debit": "bank_transfer",
      ACH: "ach_sepa",
      "ACH Direct Debit": "ach_sepa",
      "SEPA Direct Debit": "ach_sepa",
      sepa_debit: "ach_sepa",
      BACS: "ach_sepa",
      us_bank_account: "ach_sepa",
      PayPal: "paypal",
      "paypal-commerce": "paypal",
      "Apple Pay": "wallet",
      "Google Pay": "wallet",
      Wallet: "wallet",
      Crypto: "other",
      GIFTCARD: "other",
      "Gift card": "other",
      "In kind": "other",
    };
    for (const [text, want] of Object.entries(cases))
      expect(value(parsePaymentMethod(text)), text).toBe(want);
  });
});

describe("countries", () => {
  it("reads codes, English names, and the names people write instead", () => {
    const cases: Record<string, string> = {
      US: "US",
      us: "US",
      usa: "US",
      "U.S.A.": "US",
      "United States": "US",
      "United States of America": "US",
      Deutschland: "DE",
      Germany: "DE",
      de: "DE",
      UK: "GB",
      "Great Britain": "GB",
      England: "GB",
      "United Kingdom": "GB",
      "Côte d’Ivoire": "CI",
      "Cote d'Ivoire": "CI",
      Kyrgyzstan: "KG",
      "  japan ": "JP",
      Turkey: "TR",
    };
    for (const [text, want] of Object.entries(cases)) expect(value(parseCountry(text)), text).toBe(want);
    expect(value(parseCountry("Atlantis"))).toBe('"Atlantis" is not a country this import knows');
    expect(value(parseCountry("EU"))).toBe('"EU" is not a country this import knows');
  });
});

describe("tributes, modes and donor types", () => {
  it("reads tribute types", () => {
    expect(value(parseTributeType("In honor of"))).toBe("in_honor");
    expect(value(parseTributeType("In honour of"))).toBe("in_honor");
    expect(value(parseTributeType("Honor"))).toBe("in_honor");
    expect(value(parseTributeType("In memory of"))).toBe("in_memory");
    expect(value(parseTributeType("Memorial"))).toBe("in_memory");
    expect(value(parseTributeType("Birthday"))).toBe('"Birthday" is not a known tribute type');
  });

  it("reads live and test, also from a Livemode column", () => {
    expect(value(parseMode("Live"))).toBe("live");
    expect(value(parseMode("Test"))).toBe("test");
    expect(value(parseMode("true"))).toBe("live");
    expect(value(parseMode("false"))).toBe("test");
    expect(value(parseMode("sandbox"))).toBe("test");
    expect(value(parseMode("staging"))).toBe('"staging" is neither live nor test');
  });

  it("reads donor types", () => {
    for (const t of ["Individual", "Person", "Household", "INDIVIDUAL"])
      expect(value(parseDonorType(t)), t).toBe("individual");
    for (const t of ["Organization", "Organisation", "Company", "Business", "Foundation", "ORGANIZATION"])
      expect(value(parseDonorType(t)), t).toBe("organization");
    expect(value(parseDonorType("Alien"))).toBe('"Alien" is not a known donor type');
  });
});
