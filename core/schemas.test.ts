import { describe, expect, it } from "vitest";
import { MAX_AMOUNT_MINOR, MIN_AMOUNT_MINOR } from "./money";
import {
  amountMinor,
  CALENDAR_DAY_MAX,
  CALENDAR_DAY_MIN,
  calendarDay,
  currencyCode,
  enumSet,
  GIFT_CLOCK_SKEW_MS,
  giftInstant,
  httpUrl,
  INSTANT_MAX,
  INSTANT_MIN,
  instant,
} from "./schemas";
import { donationStatuses } from "./status";

const ok = (s: { safeParse: (v: unknown) => { success: boolean } }, v: unknown) => s.safeParse(v).success;

describe("the shared input schemas (decision 019)", () => {
  it("take calendar days from 1000-01-01 to 9999-12-30 that exist", () => {
    for (const d of [CALENDAR_DAY_MIN, CALENDAR_DAY_MAX, "2024-02-29", "2026-11-24"])
      expect(ok(calendarDay, d), d).toBe(true);
    for (const d of [
      "0000-01-01",
      "9999-12-31",
      "0999-12-31",
      "2026-02-29",
      "2026-02-30",
      "2026-13-01",
      "26-01-01",
      20260101,
    ])
      expect(ok(calendarDay, d), String(d)).toBe(false);
    expect(calendarDay.safeParse("9999-12-31").error?.issues).toMatchObject([
      { message: "Use a day between 1000-01-01 and 9999-12-30" },
    ]);
  });

  it("take the platform's currencies in any case, as upper case, and name the one refused", () => {
    expect(currencyCode.parse(" usd")).toBe("USD");
    expect(currencyCode.parse("JPY")).toBe("JPY");
    for (const c of ["ZZ!", "XYZ", "THB", "US", "", "USDD", 840])
      expect(ok(currencyCode, c), String(c)).toBe(false);
    expect(currencyCode.safeParse("xyz").error?.issues[0]?.message).toBe("Currency XYZ is not supported");
  });

  it("bound one gift from the platform floor to the processor cap, in minor units (1.00 and 999 999.99 of a two-decimal currency)", () => {
    expect([MIN_AMOUNT_MINOR, MAX_AMOUNT_MINOR]).toEqual([100, 99_999_999]);
    for (const a of [MIN_AMOUNT_MINOR, MAX_AMOUNT_MINOR, 4250]) expect(ok(amountMinor, a)).toBe(true);
    for (const a of [MIN_AMOUNT_MINOR - 1, MAX_AMOUNT_MINOR + 1, 1e15, 1e21, 12.5, Number.NaN, "100"])
      expect(ok(amountMinor, a), String(a)).toBe(false);
  });

  it("bound instants to 1970 … 2100, and gifts to now (with the webhook's clock skew)", () => {
    for (const t of [INSTANT_MIN, INSTANT_MAX, Date.UTC(2026, 10, 24)]) expect(ok(instant, t)).toBe(true);
    for (const t of [-1, INSTANT_MAX + 1, 8.64e15 + 1, Date.UTC(9999, 11, 31), Number.NaN, 1.5])
      expect(ok(instant, t), String(t)).toBe(false);
    expect(ok(giftInstant, Date.now())).toBe(true);
    expect(ok(giftInstant, Date.now() + GIFT_CLOCK_SKEW_MS - 1000)).toBe(true);
    expect(ok(giftInstant, Date.now() + GIFT_CLOCK_SKEW_MS + 60_000)).toBe(false);
    expect(ok(giftInstant, Date.UTC(1994, 11, 31))).toBe(true);
    expect(ok(giftInstant, -1)).toBe(false);
  });

  it("take http(s) URLs only, as a browser parses them", () => {
    for (const u of ["https://example.org", "http://example.org/a?b=c d", " https://example.org/x "])
      expect(ok(httpUrl, u), u).toBe(true);
    expect(httpUrl.parse(" https://example.org/x ")).toBe("https://example.org/x");
    for (const u of [
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "https://exa\nmple.org",
      "data:image/png;base64,AAAA",
      "//example.org",
      "/api/media/abc",
      "https://",
      `https://example.org/${"a".repeat(2048)}`,
    ])
      expect(ok(httpUrl, u), JSON.stringify(u)).toBe(false);
  });

  it("bound a multi-value filter to its set's size and keep each value once", () => {
    const status = enumSet(donationStatuses);
    expect(status.parse(["completed", "completed", "pending"])).toEqual(["completed", "pending"]);
    expect(status.parse([...donationStatuses])).toEqual([...donationStatuses]);
    expect(ok(status, [...donationStatuses, "completed"])).toBe(false);
    expect(ok(status, ["nope"])).toBe(false);
  });
});
