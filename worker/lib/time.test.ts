import { describe, expect, it } from "vitest";
import { addDays, localDay, startOfLocalDay } from "./time";

describe("organization time zone days", () => {
  it("puts an instant on the local calendar day", () => {
    const ms = Date.parse("2026-03-01T06:30:00Z");
    expect(localDay(ms, "UTC")).toBe("2026-03-01");
    expect(localDay(ms, "America/Los_Angeles")).toBe("2026-02-28");
    expect(localDay(ms, "Asia/Tokyo")).toBe("2026-03-01");
  });
  it("finds local midnight across DST", () => {
    expect(new Date(startOfLocalDay("2026-07-01", "America/Los_Angeles")).toISOString()).toBe(
      "2026-07-01T07:00:00.000Z",
    );
    expect(new Date(startOfLocalDay("2026-01-15", "America/Los_Angeles")).toISOString()).toBe(
      "2026-01-15T08:00:00.000Z",
    );
    expect(new Date(startOfLocalDay("2026-01-15", "Asia/Kolkata")).toISOString()).toBe(
      "2026-01-14T18:30:00.000Z",
    );
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
  });
});
