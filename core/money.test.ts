import { describe, expect, it } from "vitest";
import { exponentOf, formatMoney, MAX_AMOUNT_MINOR, toMajorString, toMinor } from "./money";

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
