import { describe, expect, it } from "vitest";
import { formatCount, formatDate, formatDateTime, formatMoney, formatPercent } from "./format";

describe("display formatting never throws on a stored value (decision 019)", () => {
  it("renders money in a currency Intl refuses as code and amount", () => {
    expect(formatMoney(1234, "USD")).toBe("$12.34");
    expect(formatMoney(1234, "ZZ!")).toBe("ZZ! 12.34");
    expect(formatMoney(Number.NaN, "ZZ!")).toBe("—");
  });

  it("renders an instant no Date holds, or a zone Intl refuses, without throwing", () => {
    expect(formatDate(Date.UTC(2026, 10, 24, 12), { dateStyle: "medium", timeZone: "UTC" })).toBe(
      "Nov 24, 2026",
    );
    expect(formatDate(8.64e15 + 1)).toBe("—");
    expect(formatDate(-8.64e15 - 1)).toBe("—");
    expect(formatDate(Number.NaN)).toBe("—");
    expect(formatDateTime(8.64e15 + 1)).toBe("—");
    expect(formatDate(Date.UTC(9999, 11, 31), { dateStyle: "medium", timeZone: "UTC" })).toBe("Dec 31, 9999");
    expect(formatDate(Date.UTC(2026, 10, 24, 12), { dateStyle: "medium", timeZone: "Mars/Olympus" })).toBe(
      "2026-11-24",
    );
  });
});

describe("counts read one way on every screen ('2500' on one screen, '2,500' on the next)", () => {
  it("writes thousands separators, and small counts as they are", () => {
    expect(formatCount(2500)).toBe("2,500");
    expect(formatCount(1019925)).toBe("1,019,925");
    expect(formatCount(0)).toBe("0");
    expect(formatCount(7)).toBe("7");
  });
});

describe("percentages read like counts", () => {
  it("separates thousands and keeps the digits asked for", () => {
    expect(formatPercent(37.13)).toBe("3,713%");
    expect(formatPercent(0.125, 1)).toBe("12.5%");
    expect(formatPercent(0.5)).toBe("50%");
    expect(formatPercent(null)).toBe("—");
  });
});
