import { describe, expect, it } from "vitest";
import {
  CURRENCIES,
  exponentOf,
  formatMoney,
  MAX_AMOUNT_MINOR,
  moneyLocale,
  numberMarks,
  parseMoney,
  toMajorInput,
  toMajorString,
  toMinor,
} from "./money";

describe("money", () => {
  it("converts with each currency's exponent", () => {
    expect(toMinor("12.34", "USD")).toBe(1234);
    expect(toMinor("12.3", "USD")).toBe(1230);
    expect(toMinor("1200", "JPY")).toBe(1200);
    expect(toMinor("1.234", "KWD")).toBe(1234);
    expect(() => toMinor("1.234", "USD")).toThrow();
    expect(() => toMinor("1.5", "JPY")).toThrow();
    expect(() => toMinor("-1", "USD")).toThrow();
    expect(toMajorString(5, "USD")).toBe("0.05");
    expect(toMajorString(1234, "KWD")).toBe("1.234");
    expect(exponentOf("eur")).toBe(2);
    expect(formatMoney(123456, "USD")).toBe("$1,234.56");
  });

  it("formats any stored value without throwing (rows stored before decision 019's rules)", () => {
    expect(formatMoney(1234, "ZZ!")).toBe("ZZ! 12.34");
    expect(formatMoney(1234, "XYZ")).toBe("XYZ\u00a012.34");
    expect(formatMoney(1e15, "USD")).toBe("$10,000,000,000,000.00");
    expect(formatMoney(Number.NaN, "USD")).toBe("—");
    expect(formatMoney(Number.POSITIVE_INFINITY, "ZZ!")).toBe("—");
    expect(toMajorString(1e21, "USD")).toBe("10000000000000000000");
    expect(toMajorString(12.5, "USD")).toBe("0.125");
    expect(toMajorString(Number.NaN, "USD")).toBe("");
    expect(toMajorString(MAX_AMOUNT_MINOR, "JPY")).toBe("99999999");
    expect(toMajorString(MAX_AMOUNT_MINOR, "KWD")).toBe("99999.999");
  });
});

/** Locales an organization's country maps to (moneyLocale), one for each way of writing numbers. */
const LOCALES = [
  "en-US",
  "en-GB",
  "fr-FR",
  "fr-CA",
  "fr-CH",
  "de-DE",
  "de-AT",
  "de-CH",
  "es-ES",
  "es-MX",
  "it-IT",
  "nl-NL",
  "pt-BR",
  "ja-JP",
  "sv-SE",
  "nb-NO",
  "da-DK",
  "en-IN",
  "hi-IN",
  "ar-KW",
  "en-ZA",
  "en-AU",
];

/** A seeded generator (mulberry32): a failure names its amount, and every run tries the same ones. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const read = (text: string, currency = "USD", locale = "en-US") => {
  const r = parseMoney(text, currency, locale);
  return r.ok ? r.minor : r.message;
};

describe("what people type into a money field", () => {
  it("reads grouping, symbols and the locale's decimal mark", () => {
    expect(read("25,000")).toBe(2_500_000);
    expect(read("$25")).toBe(2500);
    expect(read(" $ 25.50 ")).toBe(2550);
    expect(read("25")).toBe(2500);
    expect(read("€25", "EUR", "fr-FR")).toBe(2500);
    expect(read("25,00", "EUR", "fr-FR")).toBe(2500);
    expect(read("25,5", "EUR", "fr-FR")).toBe(2550);
    expect(read("1\u202f250,50", "EUR", "fr-FR")).toBe(125050);
    expect(read("1 250,50 €", "EUR", "fr-FR")).toBe(125050);
    expect(read("1.250,50", "EUR", "de-DE")).toBe(125050);
    expect(read("1.250", "EUR", "de-DE")).toBe(125000);
    expect(read("1’250.50", "CHF", "de-CH")).toBe(125050);
    expect(read("¥1,000", "JPY", "ja-JP")).toBe(1000);
    expect(read("1,000", "JPY", "de-DE")).toBe(1000);
    expect(read("12,34,567.50", "INR", "en-IN")).toBe(123456750);
    expect(read("١٬٢٥٠٫٥٠٠ د.ك.", "KWD", "ar-KW")).toBe(1250500);
    expect(read("1.250", "KWD", "en-US")).toBe(1250);
    // Unambiguous in any locale: two marks, or a lone mark before other than three digits.
    expect(read("1,250.50", "EUR", "fr-FR")).toBe(125050);
    expect(read("25.50", "EUR", "fr-FR")).toBe(2550);
    expect(read("1.250", "EUR", "fr-FR")).toBe(125000);
  });

  it("refuses what could be read two ways, saying both readings", () => {
    expect(read("1,250", "EUR", "fr-FR")).toBe('"1,250" could be 1250 or 1,25: type one of those');
    expect(read("1.250", "USD", "en-US")).toBe('"1.250" could be 1250 or 1.25: type one of those');
    expect(read("1,255", "EUR", "de-DE")).toBe('At most 2 decimals in EUR; for 1255 type it without ","');
    // Lakhs only where the locale writes them.
    expect(read("12,34,567.50", "INR", "en-US")).toBe("Enter an amount like 25.00");
  });

  it("refuses what is not an amount of this field, in words", () => {
    expect(read("")).toBe("Enter an amount");
    expect(read("  ")).toBe("Enter an amount");
    expect(read("abc")).toBe("Enter an amount like 25.00");
    expect(read("abc", "EUR", "fr-FR")).toBe("Enter an amount like 25,00");
    expect(read("abc", "JPY", "ja-JP")).toBe("Enter an amount like 25");
    expect(read("-5")).toBe("Enter an amount above zero");
    expect(read("(5.00)")).toBe("Enter an amount above zero");
    expect(read("€25")).toBe("This amount is in USD, not EUR");
    expect(read("£25", "EUR", "fr-FR")).toBe("This amount is in EUR, not GBP");
    expect(read("XYZ 25")).toBe("Enter an amount in USD");
    expect(read("1.5", "JPY", "ja-JP")).toBe("JPY has no decimals: enter a whole amount");
    expect(read("1.234")).toBe('At most 2 decimals in USD; for 1234 type it without "."');
    expect(read("1.2345", "KWD")).toBe("At most 3 decimals in KWD");
    expect(read("12,3,4")).toBe("Enter an amount like 25.00");
    expect(read("1e5")).toBe("Enter an amount like 25.00");
    expect(read("12345678901234567")).toBe("That amount is too large");
  });

  it("maps an organization's country to the locale its people write in", () => {
    expect(moneyLocale("FR")).toBe("fr-FR");
    expect(moneyLocale("fr")).toBe("fr-FR");
    expect(moneyLocale("CH")).toBe("de-CH");
    expect(moneyLocale("US")).toBe("en-US");
    expect(moneyLocale(null)).toBe("en-US");
    expect(moneyLocale("Z!")).toBe("en-US");
    expect(numberMarks("fr-FR")).toEqual({ decimal: ",", grouping: "thousands" });
    expect(numberMarks("hi-IN")).toEqual({ decimal: ".", grouping: "indian" });
    expect(numberMarks("ar-KW")).toEqual({ decimal: ".", grouping: "thousands" });
    expect(toMajorInput(125050, "EUR", "fr-FR")).toBe("1250,50");
    expect(toMajorInput(1250, "JPY", "de-DE")).toBe("1250");
  });

  it("reads back every amount it formats, in every locale and currency (property)", () => {
    const random = prng(53);
    const edges = [0, 1, 5, 99, 100, 999, 1000, 1250, 12_345, 100_000, 1_000_000, MAX_AMOUNT_MINOR];
    const wrong: string[] = [];
    for (const locale of LOCALES)
      for (const currency of CURRENCIES) {
        const amounts = [
          ...edges,
          ...Array.from({ length: 60 }, () => Math.floor(random() ** 3 * MAX_AMOUNT_MINOR)),
        ];
        for (const minor of amounts)
          for (const shown of [formatMoney(minor, currency, locale), toMajorInput(minor, currency, locale)]) {
            const back = parseMoney(shown, currency, locale);
            if (!back.ok || back.minor !== minor)
              wrong.push(
                `${locale} ${currency} ${minor} "${shown}" → ${back.ok ? back.minor : back.message}`,
              );
          }
      }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});
