import { describe, expect, it } from "vitest";
import {
  addDays,
  CALENDAR_DAY_MAX,
  CALENDAR_DAY_MIN,
  calendarDayProblem,
  dayKey,
  localDay,
  offsetAt,
  offsetSpans,
  startOfLocalDay,
} from "./time";

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

  it("starts a day at its first instant where the clocks jump at midnight", () => {
    // America/Asuncion, 2024-10-06: 00:00 became 01:00 (local midnight never happened); Africa/
    // Tunis, 1988-09-25: 01:00 went back to 00:00 (midnight happened twice); Pacific/Apia skipped
    // 2011-12-30 altogether.
    for (const [day, tz] of [
      ["2024-10-06", "America/Asuncion"],
      ["2024-03-24", "America/Asuncion"],
      ["2022-09-11", "America/Santiago"],
      ["1988-09-25", "Africa/Tunis"],
      ["2011-12-30", "Pacific/Apia"],
      ["2011-12-31", "Pacific/Apia"],
      ["2026-03-08", "America/Los_Angeles"],
      ["2026-01-15", "Pacific/Kiritimati"],
    ] as const) {
      const s = startOfLocalDay(day, tz);
      expect(localDay(s, tz) >= day, `${tz} ${day}`).toBe(true);
      expect(localDay(s - 1, tz) < day, `${tz} ${day}`).toBe(true);
    }
    expect(new Date(startOfLocalDay("2024-10-06", "America/Asuncion")).toISOString()).toBe(
      "2024-10-06T04:00:00.000Z",
    );
    // The skipped day holds no instant: its range is empty.
    expect(startOfLocalDay("2011-12-30", "Pacific/Apia")).toBe(startOfLocalDay("2011-12-31", "Pacific/Apia"));
  });

  it("finds each UTC offset span exactly", () => {
    for (const tz of ["America/Asuncion", "Europe/London", "Australia/Lord_Howe", "Pacific/Apia", "UTC"]) {
      const from = Date.UTC(2010, 0, 1);
      const until = Date.UTC(2027, 0, 1);
      const spans = offsetSpans(from, until, tz);
      expect(spans[0]?.[0]).toBe(from);
      expect(spans.at(-1)?.[1]).toBe(until);
      for (const [i, [s, e, o]] of spans.entries()) {
        if (i > 0) expect(s).toBe(spans[i - 1]?.[1]);
        expect(offsetAt(s, tz), `${tz} ${new Date(s).toISOString()}`).toBe(o);
        expect(offsetAt(e - 1, tz), `${tz} ${new Date(e).toISOString()}`).toBe(o);
      }
    }
  });

  it("keys instants outside four-digit years before or after every real day", () => {
    expect(dayKey(Date.UTC(999, 11, 31), "UTC")).toBe("0000-00-00");
    expect(dayKey(Date.UTC(10_000, 0, 1), "UTC")).toBe("9999-99-99");
    expect(dayKey(Date.UTC(2026, 0, 1), "Asia/Tokyo")).toBe("2026-01-01");
  });
  it("never throws on an instant no Date holds: it has no day and no offset (rows stored before decision 019)", () => {
    for (const tz of ["UTC", "Asia/Tokyo", "America/Los_Angeles"]) {
      expect(localDay(8.64e15 + 1, tz)).toBe("9999-99-99");
      expect(localDay(Number.POSITIVE_INFINITY, tz)).toBe("9999-99-99");
      expect(localDay(-8.64e15 - 1, tz)).toBe("0000-00-00");
      expect(localDay(Number.NaN, tz)).toBe("0000-00-00");
      expect(dayKey(Number.NaN, tz)).toBe("0000-00-00");
      expect(offsetAt(8.64e15 + 1, tz)).toBe(0);
      expect(offsetAt(Number.NaN, tz)).toBe(0);
    }
    // The last day a Date holds has a six-digit year: no four-digit day either (issue 53).
    expect(localDay(8.64e15, "UTC")).toBe("9999-99-99");
    expect(localDay(-8.64e15, "UTC")).toBe("0000-00-00");
  });

  it("names the calendar days a filter may take: real days of four-digit years whose next day is one too", () => {
    for (const day of [CALENDAR_DAY_MIN, CALENDAR_DAY_MAX, "2024-02-29", "2026-12-31", "1994-12-31"]) {
      expect(calendarDayProblem(day), day).toBeNull();
      // Every such day and the next one start somewhere in every zone.
      for (const tz of ["UTC", "Pacific/Kiritimati", "America/Asuncion"]) {
        expect(Number.isFinite(startOfLocalDay(day, tz)), `${day} ${tz}`).toBe(true);
        expect(Number.isFinite(startOfLocalDay(addDays(day, 1), tz)), `${day} + 1 ${tz}`).toBe(true);
      }
    }
    expect(calendarDayProblem("2026-02-29")).toBe("2026-02-29 is not a day of the calendar");
    expect(calendarDayProblem("2026-04-31")).toBe("2026-04-31 is not a day of the calendar");
    expect(calendarDayProblem("2026-00-10")).toBe("2026-00-10 is not a day of the calendar");
    expect(calendarDayProblem("2026-13-01")).toBe("2026-13-01 is not a day of the calendar");
    for (const day of ["0000-01-01", "0999-12-31", "9999-12-31"])
      expect(calendarDayProblem(day), day).toBe("Use a day between 1000-01-01 and 9999-12-30");
    for (const day of ["20260101", "2026-1-01", " 2026-01-01", "+02026-01-01", "2026-01-01T00:00", ""])
      expect(calendarDayProblem(day), day).toBe("Use a YYYY-MM-DD date");
  });
});
