/**
 * The reports in people's words (issue 53, L2): a change against the year before reads as a
 * percent, or as a multiple past ten times; the giving CSV's change is the percent the screen shows.
 */
import { csvFile, GIVING_COLUMNS } from "@core/exports/reports";
import { describe, expect, it } from "vitest";
import { changeWords } from "../../src/features/reports/change-words";

describe("a change against the year before", () => {
  it("reads as a percent, or past ten times the year before as a multiple", () => {
    expect(changeWords(0.2386)?.text).toBe("+23.9%");
    expect(changeWords(-0.4)?.text).toBe("-40.0%");
    expect(changeWords(0)?.text).toBe("+0.0%");
    expect(changeWords(8.5)?.text).toBe("+850.0%");
    expect(changeWords(9)?.text).toBe("10×");
    expect(changeWords(5_206.5)).toEqual({ text: "5,208×", title: "5,208 times the year before" });
    expect(changeWords(null)).toBeNull();
  });

  it("is the screen's percent in the giving CSV, blank for a year after one that raised nothing", () => {
    const row = { raisedMinor: 12_345, gifts: 3, donors: 2, newDonors: 1, averageMinor: 4_115 };
    const text = csvFile(
      GIVING_COLUMNS,
      [
        { year: 2025, label: "2025", ...row, change: null },
        { year: 2026, label: "2026", ...row, change: 0.238468 },
      ],
      { currency: "USD", timeZone: "UTC" },
    );
    const [header, first, second] = text.trimEnd().split("\r\n");
    expect(header?.split(",").at(-1)).toBe("change_vs_previous_year_percent");
    expect(first?.split(",").at(-1)).toBe("");
    expect(second?.split(",").at(-1)).toBe("23.8");
  });
});
