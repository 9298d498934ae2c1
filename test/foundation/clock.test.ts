import { afterEach, describe, expect, it } from "vitest";
import { anchoredToday, shiftClock } from "../../worker/lib/shifted-clock";

const Real = Date;
afterEach(() => {
  globalThis.Date = Real;
});

describe("the suite on another day (TEST_TODAY)", () => {
  it("starts the clock at that moment and lets it tick, leaving every other use of Date as it was", async () => {
    shiftClock("2028-02-29T23:59:59.900Z");
    expect(new Date().toISOString().slice(0, 19)).toBe("2028-02-29T23:59:59");
    expect(Date.now() - Date.parse("2028-02-29T23:59:59.900Z")).toBeLessThan(1000);
    expect(new Date() instanceof Real).toBe(true);
    expect(Date()).toContain("2028");
    expect(new Date(0).getTime()).toBe(0);
    expect(new Date(2027, 0, 31).getDate()).toBe(31);
    expect(Date.UTC(2027, 11, 31)).toBe(Real.UTC(2027, 11, 31));
    const before = Date.now();
    await new Promise((r) => setTimeout(r, 150));
    expect(Date.now()).toBeGreaterThan(before);
  });

  it("reads the same time in every process handed the same anchored day", () => {
    const began = Real.now() - 5_000;
    shiftClock(`2027-12-31T23:59:58Z@${began}`);
    // Five real seconds after the day began: already the next year, as in the process that began it.
    expect(Date.now() - Date.parse("2028-01-01T00:00:03Z")).toBeGreaterThanOrEqual(0);
    expect(Date.now() - Date.parse("2028-01-01T00:00:03Z")).toBeLessThan(1_000);
    expect(anchoredToday("2027-12-31T23:59:58Z")).toMatch(/^2027-12-31T23:59:58Z@\d+$/);
    expect(anchoredToday(`x@${began}`)).toBe(`x@${began}`);
    expect(anchoredToday(undefined)).toBeUndefined();
  });

  it("leaves the clock alone without a day, and refuses what is not one", () => {
    shiftClock("");
    expect(Date).toBe(Real);
    expect(() => shiftClock("the 32nd")).toThrow("TEST_TODAY is not a date: the 32nd");
  });
});
