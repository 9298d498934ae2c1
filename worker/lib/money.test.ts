import { describe, expect, it } from "vitest";
import { exponentOf, formatMoney, toMajorString, toMinor } from "./money";

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
});
