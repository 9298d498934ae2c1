/**
 * The reports' pure rules (core/reports.ts, core/donor-tiers.ts): the pyramid's bands agree with
 * the tier rule at every amount, years start at the organization's first local midnight of their
 * month, LYBUNT's years turn over at local New Year, and the cumulative lines add up.
 */
import { tierBands, tierForAmount } from "@core/donor-tiers";
import { cumulativeSeries, lapsedYears, reportYears, yearOfDay } from "@core/reports";
import { describe, expect, it } from "vitest";

describe("report rules", () => {
  it("cut the tiers into bands that agree with the tier rule at every amount, overlapping ladders included", () => {
    const tiers = [
      { id: "general", minMinor: 0, maxMinor: 50_000 },
      { id: "mid", minMinor: 50_000, maxMinor: 500_000 },
      { id: "major", minMinor: 500_000, maxMinor: null },
      // Another basis's ladder may overlap: the highest minimum wins (worker/ledger/donor-stats.ts).
      { id: "sustainer", minMinor: 30_000, maxMinor: 90_000 },
      { id: "gap-lover", minMinor: 700_000, maxMinor: 800_000 },
    ];
    const bands = tierBands(tiers);
    expect(bands.map((b) => [b.minMinor, b.maxMinor, b.tier?.id ?? null])).toEqual([
      [0, 30_000, "general"],
      // Where Sustainer overlaps General it starts higher and wins; Mid starts higher still.
      [30_000, 50_000, "sustainer"],
      [50_000, 500_000, "mid"],
      [500_000, 700_000, "major"],
      [700_000, 800_000, "gap-lover"],
      [800_000, null, "major"],
    ]);
    for (let amount = 0; amount < 1_000_000; amount += 997) {
      const band = bands.find((b) => b.minMinor <= amount && (b.maxMinor === null || amount < b.maxMinor));
      expect(band?.tier ?? null, String(amount)).toBe(tierForAmount(tiers, amount));
    }
    // A ladder with holes: amounts no tier holds form bands of their own.
    expect(
      tierBands([{ id: "t", minMinor: 100, maxMinor: 200 }]).map((b) => [
        b.minMinor,
        b.maxMinor,
        b.tier?.id ?? null,
      ]),
    ).toEqual([
      [0, 100, null],
      [100, 200, "t"],
      [200, null, null],
    ]);
    expect(tierBands([]).map((b) => [b.minMinor, b.maxMinor, b.tier])).toEqual([[0, null, null]]);
  });

  it("names a year by the year it starts in, and starts it at the first local midnight of its month", () => {
    expect(yearOfDay("2026-06-30", 7)).toBe(2025);
    expect(yearOfDay("2026-07-01", 7)).toBe(2026);
    expect(yearOfDay("2026-01-01", 1)).toBe(2026);
    const [fy] = reportYears(2026, 2026, "fiscal", 7, "Pacific/Auckland");
    expect(fy).toEqual({
      year: 2026,
      label: "FY 2026/27",
      start: Date.UTC(2026, 5, 30, 12), // 00:00 NZST (+12) on July 1
      end: Date.UTC(2027, 5, 30, 12),
    });
    const [cal] = reportYears(2027, 2027, "calendar", 7, "Pacific/Auckland");
    expect(cal?.start).toBe(Date.UTC(2026, 11, 31, 11)); // 00:00 NZDT (+13) on January 1
    expect(cal?.label).toBe("2027");
    const { last, current } = lapsedYears("2027-01-01", "calendar", 7, "Pacific/Auckland");
    expect([last.label, current.label, current.start]).toEqual(["2026", "2027", Date.UTC(2026, 11, 31, 11)]);
  });

  it("adds up a campaign's days into one value per day, from its day 0 or over the calendar", () => {
    const points = [
      { day: "2026-03-01", raisedMinor: 500 }, // before day 0: counted on day 0
      { day: "2026-03-03", raisedMinor: 100 },
      { day: "2026-03-05", raisedMinor: 250 },
    ];
    const days = { day0: "2026-03-02", end: "2026-03-05", from: "2026-02-28", to: "2026-03-06" };
    expect(cumulativeSeries(points, "start", days)).toEqual([
      { key: "0", value: 500 },
      { key: "1", value: 600 },
      { key: "2", value: 600 },
      { key: "3", value: 850 },
    ]);
    expect(cumulativeSeries(points, "calendar", days).map((p) => p.value)).toEqual([
      0, 500, 500, 600, 600, 850, 850,
    ]);
  });
});
