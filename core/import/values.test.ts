/**
 * One cell into a stored value (issue 23): amounts as locales write them, dates in ISO, US and
 * European order across zones and DST, names, and the vocabularies of the systems a team leaves.
 */
import { describe, expect, it } from "vitest";
import {
  detectDateOrder,
  detectDecimal,
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

const amount = (text: string, currency = "USD", decimal: "auto" | "." | "," = "auto") =>
  parseAmount(text, { decimal, currency });
const minor = (text: string, currency = "USD", decimal: "auto" | "." | "," = "auto") => {
  const r = amount(text, currency, decimal);
  return r.ok ? r.value : r.problem;
};

describe("amounts", () => {
  it("reads symbols, codes, thousands separators and decimal commas into minor units", () => {
    expect(minor("25")).toEqual({ minor: 2500, currency: null });
    expect(minor("$1,234.56")).toEqual({ minor: 123456, currency: null });
    expect(minor("€1.234,56")).toEqual({ minor: 123456, currency: "EUR" });
    expect(minor("1 234,56 €")).toEqual({ minor: 123456, currency: "EUR" });
    expect(minor("1\u00a0234,56\u202f€")).toEqual({ minor: 123456, currency: "EUR" });
    expect(minor("CHF 1'234.50")).toEqual({ minor: 123450, currency: "CHF" });
    expect(minor("USD 25")).toEqual({ minor: 2500, currency: "USD" });
    expect(minor("25.00 gbp")).toEqual({ minor: 2500, currency: "GBP" });
    expect(minor("R$ 10,00")).toEqual({ minor: 1000, currency: "BRL" });
    expect(minor("£0.99")).toEqual({ minor: 99, currency: "GBP" });
    expect(minor("12,5")).toEqual({ minor: 1250, currency: null });
    expect(minor("1.234.567")).toEqual({ minor: 123456700, currency: null });
    expect(minor("+10.10")).toEqual({ minor: 1010, currency: null });
    expect(minor('"7.00"')).toEqual({ minor: 700, currency: null });
  });

  it("uses the currency's decimals: yen have none, dinars three", () => {
    expect(minor("¥1,000", "JPY")).toEqual({ minor: 1000, currency: null });
    expect(minor("1000", "JPY")).toEqual({ minor: 1000, currency: null });
    expect(minor("10.5", "JPY")).toBe('"10.5" has more decimals than JPY has (0)');
    expect(minor("1.250", "KWD", ".")).toEqual({ minor: 1250, currency: null });
    expect(minor("12.345")).toBe(
      'Ambiguous amount "12.345": choose whether "." separates thousands or decimals',
    );
    expect(minor("12.345", "USD", ",")).toEqual({ minor: 1234500, currency: null });
    expect(minor("1,234", "USD", ".")).toEqual({ minor: 123400, currency: null });
    expect(minor("1,234", "USD", ",")).toBe('"1,234" has more decimals than USD has (2)');
  });

  it("refuses negatives, words, two currencies and malformed groups with a reason", () => {
    expect(minor("-5.00")).toMatch(/^Negative amounts are not gifts/);
    expect(minor("(5.00)")).toMatch(/^Negative amounts are not gifts/);
    expect(minor("lots")).toBe('"lots" is not an amount');
    expect(minor("€5 USD")).toBe('"€5 USD" names two currencies');
    expect(minor("XYZ 5")).toBe("Currency XYZ is not supported");
    expect(minor("1,23,456.00")).toBe('"1,23,456.00" is not an amount');
    expect(minor("")).toBe("No amount");
  });

  it("works out a column's decimal mark, or says it cannot", () => {
    expect(detectDecimal(["1,234.56", "12.00"])).toBe(".");
    expect(detectDecimal(["1.234,56", "12,00"])).toBe(",");
    expect(detectDecimal(["1,234", "5,678", "25"])).toBeNull();
    expect(detectDecimal(["1.234.567", "10"])).toBe(",");
    expect(detectDecimal(["12.50", "12,50"])).toBeNull();
  });
});

const at = (text: string, timeZone = "UTC", order: "auto" | "mdy" | "dmy" | "ymd" = "auto") => {
  const r = parseDate(text, { order, timeZone });
  return r.ok ? new Date(r.value).toISOString() : r.problem;
};

describe("dates", () => {
  it("reads ISO, US, European, month names and timestamps; a date alone is local noon", () => {
    expect(at("2025-03-05")).toBe("2025-03-05T12:00:00.000Z");
    expect(at("2025-03-05T14:22:10Z")).toBe("2025-03-05T14:22:10.000Z");
    expect(at("2025-03-05 14:22:10.123+01:00")).toBe("2025-03-05T13:22:10.123Z");
    expect(at("2025/03/05")).toBe("2025-03-05T12:00:00.000Z");
    expect(at("03/25/2025")).toBe("2025-03-25T12:00:00.000Z");
    expect(at("25.03.2025")).toBe("2025-03-25T12:00:00.000Z");
    expect(at("3/5/25", "UTC", "mdy")).toBe("2025-03-05T12:00:00.000Z");
    expect(at("3/5/25", "UTC", "dmy")).toBe("2025-05-03T12:00:00.000Z");
    expect(at("03/25/2025 2:05 PM")).toBe("2025-03-25T14:05:00.000Z");
    expect(at("03/25/2025 12:05 am")).toBe("2025-03-25T00:05:00.000Z");
    expect(at("Mar 5, 2025")).toBe("2025-03-05T12:00:00.000Z");
    expect(at("5 March 2025")).toBe("2025-03-05T12:00:00.000Z");
    expect(at("March 5th, 2025")).toBe("2025-03-05T12:00:00.000Z");
    expect(at("05-Mar-2025")).toBe("2025-03-05T12:00:00.000Z");
    expect(at("1741176000")).toBe("2025-03-05T12:00:00.000Z");
    expect(at("1741176000000")).toBe("2025-03-05T12:00:00.000Z");
    expect(at("2025-03-05 09:00 UTC", "Asia/Tokyo")).toBe("2025-03-05T09:00:00.000Z");
    expect(at("12/31/99", "UTC", "mdy")).toBe("1999-12-31T12:00:00.000Z");
  });

  it("puts wall times in the import's zone, across DST", () => {
    expect(at("2025-07-04 09:00", "America/New_York")).toBe("2025-07-04T13:00:00.000Z");
    expect(at("2025-01-04 09:00", "America/New_York")).toBe("2025-01-04T14:00:00.000Z");
    expect(at("2025-03-30 12:00", "Europe/Berlin")).toBe("2025-03-30T10:00:00.000Z");
    expect(at("2025-03-29 12:00", "Europe/Berlin")).toBe("2025-03-29T11:00:00.000Z");
    expect(at("2025-03-05", "Asia/Tokyo")).toBe("2025-03-05T03:00:00.000Z");
    // 02:30 on the spring-forward night does not exist in New York: read as the same time after the jump.
    expect(at("2025-03-09 02:30", "America/New_York")).toBe("2025-03-09T07:30:00.000Z");
    // 01:30 on the fall-back night happens twice: the first of the two.
    expect(at("2025-11-02 01:30", "America/New_York")).toBe("2025-11-02T05:30:00.000Z");
  });

  it("asks when the day order cannot be told, and refuses what is not a day", () => {
    expect(at("03/04/2025")).toBe(
      'Ambiguous date "03/04/2025": choose whether the day or the month comes first',
    );
    expect(at("04/04/2025")).toBe("2025-04-04T12:00:00.000Z");
    expect(at("02/30/2025", "UTC", "mdy")).toBe('"02/30/2025" is not a day of the calendar');
    expect(at("2025-13-01")).toBe('"2025-13-01" is not a day of the calendar');
    expect(at("31/31/2025")).toBe('"31/31/2025" is not a date');
    expect(at("soon")).toBe('"soon" is not a date');
    expect(at("03/25/2025 25:00")).toBe('"03/25/2025 25:00" has a time that is not one');
    expect(at("")).toBe("No date");
  });

  it("works out a column's day order from the values that tell", () => {
    expect(detectDateOrder(["01/02/2025", "13/02/2025"])).toEqual({ order: "dmy", ambiguous: false });
    expect(detectDateOrder(["01/02/2025", "02/13/2025"])).toEqual({ order: "mdy", ambiguous: false });
    expect(detectDateOrder(["2025-01-02", "2025-02-13"])).toEqual({ order: "ymd", ambiguous: false });
    expect(detectDateOrder(["01/02/2025", "03/04/2025"])).toEqual({ order: null, ambiguous: true });
    expect(detectDateOrder(["13/02/2025", "02/13/2025"])).toEqual({ order: null, ambiguous: false });
    expect(detectDateOrder(["Mar 5, 2025", "05/05/2025"])).toEqual({ order: null, ambiguous: false });
  });
});

describe("names", () => {
  it("splits one name column into first and last", () => {
    expect(splitName("Ada Lovelace")).toEqual({ firstName: "Ada", lastName: "Lovelace" });
    expect(splitName("Lovelace, Ada")).toEqual({ firstName: "Ada", lastName: "Lovelace" });
    expect(splitName("Dr. Grace  Hopper")).toEqual({ firstName: "Grace", lastName: "Hopper" });
    expect(splitName("Ludwig van Beethoven")).toEqual({ firstName: "Ludwig", lastName: "van Beethoven" });
    expect(splitName("Martin Luther King Jr.")).toEqual({ firstName: "Martin Luther", lastName: "King Jr." });
    expect(splitName("Cher")).toEqual({ firstName: null, lastName: "Cher" });
    expect(splitName("Mary Ann de la Cruz")).toEqual({ firstName: "Mary Ann", lastName: "de la Cruz" });
    expect(splitName("  ")).toEqual({ firstName: null, lastName: null });
  });
});

const value = <T>(r: { ok: true; value: T } | { ok: false; problem: string }) => (r.ok ? r.value : r.problem);

describe("vocabularies", () => {
  it("statuses of GiveWP, Stripe, NPSP, CiviCRM and Open Collective", () => {
    const cases: [string, string][] = [
      ["Complete", "completed"],
      ["publish", "completed"],
      ["Paid", "completed"],
      ["Closed Won", "completed"],
      ["PAID", "completed"],
      ["Partially refunded", "partially_refunded"],
      ["Refunded", "refunded"],
      ["Closed Lost", "failed"],
      ["EXPIRED", "failed"],
      ["Pledged", "pending"],
      ["Preapproval", "pending"],
      ["In Progress", "processing"],
      ["Revoked", "cancelled"],
      ["Canceled", "cancelled"],
      ["Chargeback", "disputed"],
      ["Abandoned", "abandoned"],
    ];
    for (const [text, want] of cases) expect(value(parseStatus(text)), text).toBe(want);
    expect(value(parseStatus("Maybe"))).toBe('"Maybe" is not a known status');
  });

  it("frequencies, but never a guessed interval", () => {
    expect(value(parseFrequency("One-time"))).toBe("one_time");
    expect(value(parseFrequency("No"))).toBe("one_time");
    expect(value(parseFrequency("Monthly"))).toBe("monthly");
    expect(value(parseFrequency("every 3 months"))).toBe("quarterly");
    expect(value(parseFrequency("Yearly"))).toBe("annually");
    expect(value(parseFrequency("Yes"))).toMatch(/not how often/);
  });

  it("payment methods, countries, yes/no, tributes, modes and donor types", () => {
    expect(value(parsePaymentMethod("Visa"))).toBe("card");
    expect(value(parsePaymentMethod("Cheque"))).toBe("check");
    expect(value(parsePaymentMethod("ACH Direct Debit"))).toBe("ach_sepa");
    expect(value(parsePaymentMethod("Wire transfer"))).toBe("bank_transfer");
    expect(value(parsePaymentMethod("PayPal"))).toBe("paypal");
    expect(value(parsePaymentMethod("Apple Pay"))).toBe("wallet");
    expect(value(parsePaymentMethod("Crypto"))).toBe("other");
    expect(value(parseCountry("United Kingdom"))).toBe("GB");
    expect(value(parseCountry("uk"))).toBe("GB");
    expect(value(parseCountry("USA"))).toBe("US");
    expect(value(parseCountry("Deutschland"))).toBe("DE");
    expect(value(parseCountry("de"))).toBe("DE");
    expect(value(parseCountry("Côte d’Ivoire"))).toBe("CI");
    expect(value(parseCountry("Atlantis"))).toBe('"Atlantis" is not a country this import knows');
    expect(value(parseBoolean("Yes"))).toBe(true);
    expect(value(parseBoolean("opted out"))).toBe(false);
    expect(value(parseBoolean("x"))).toBe(true);
    expect(value(parseBoolean("perhaps"))).toBe('"perhaps" is not a known yes or no');
    expect(value(parseTributeType("In memory of"))).toBe("in_memory");
    expect(value(parseTributeType("In honour of"))).toBe("in_honor");
    expect(value(parseMode("Live"))).toBe("live");
    expect(value(parseMode("false"))).toBe("test");
    expect(value(parseDonorType("Household"))).toBe("individual");
    expect(value(parseDonorType("Foundation"))).toBe("organization");
  });
});
