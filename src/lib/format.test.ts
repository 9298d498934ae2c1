import { describe, expect, it } from "vitest";
import { formatCount, formatDate, formatDateTime, formatMoney, formatPercent } from "./format";

describe("display formatting never throws on a stored value (decision 019)", () => {
  it("renders money in a currency Intl refuses as code and amount", () => {
    expect(formatMoney(1234, "USD")).toBe("$12.34");
    expect(formatMoney(1234, "ZZ!")).toBe("ZZ! 12.34");
    expect(formatMoney(Number.NaN, "ZZ!")).toBe("—");
  });

  it("renders an instant no Date holds, or a zone Intl refuses, without throwing", () => {
    expect(formatDate(Date.UTC(2026, 10, 24, 12), "UTC")).toBe("Nov 24, 2026");
    expect(formatDate(8.64e15 + 1, "UTC")).toBe("—");
    expect(formatDate(-8.64e15 - 1, "UTC")).toBe("—");
    expect(formatDate(Number.NaN, "UTC")).toBe("—");
    expect(formatDateTime(8.64e15 + 1, "UTC")).toBe("—");
    expect(formatDate(Date.UTC(9999, 11, 31), "UTC")).toBe("Dec 31, 9999");
    expect(formatDate(Date.UTC(2026, 10, 24, 12), "Mars/Olympus")).toBe("2026-11-24");
    expect(formatDateTime(Date.UTC(2026, 10, 24, 12, 5), "Mars/Olympus")).toBe("2026-11-24 12:05");
  });
});

describe("dates are the organization's days, wherever the server or the browser runs", () => {
  // 07:30 UTC on Nov 25 is still Nov 24 in Los Angeles: the day its filters and reports count.
  const early = Date.UTC(2026, 10, 25, 7, 30);

  it("writes the day in the zone given, not the machine's", () => {
    expect(formatDate(early, "America/Los_Angeles")).toBe("Nov 24, 2026");
    expect(formatDate(early, "UTC")).toBe("Nov 25, 2026");
    expect(formatDate(early, "Asia/Tokyo")).toBe("Nov 25, 2026");
  });

  it("names the zone of a moment, so staff elsewhere read it right", () => {
    expect(formatDateTime(early, "America/Los_Angeles")).toBe("Nov 24, 2026, 11:30 PM PST");
    expect(formatDateTime(early, "UTC")).toBe("Nov 25, 2026, 7:30 AM UTC");
    expect(formatDateTime(early, "Europe/Berlin")).toBe("Nov 25, 2026, 8:30 AM GMT+1");
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
