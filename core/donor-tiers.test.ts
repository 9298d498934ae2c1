import { describe, expect, it } from "vitest";
import { ladderGaps, mergedRange, moveTargets } from "./donor-tiers";

const general = { id: "g", basis: "lifetime", minMinor: 0, maxMinor: 50_000 };
const mid = { id: "m", basis: "lifetime", minMinor: 50_000, maxMinor: 500_000 };
const major = { id: "j", basis: "lifetime", minMinor: 500_000, maxMinor: null };
const recent = { id: "r", basis: "rolling_12m", minMinor: 50_000, maxMinor: null };

describe("donor tier ladders", () => {
  it("lets a deleted tier's donors move only to a touching tier on the same basis, which grows over it", () => {
    expect(mergedRange(mid, general)).toEqual({ minMinor: 0, maxMinor: 500_000 });
    expect(mergedRange(mid, major)).toEqual({ minMinor: 50_000, maxMinor: null });
    expect(mergedRange(major, general)).toBeNull();
    expect(mergedRange(mid, recent)).toBeNull();
    expect(mergedRange(mid, mid)).toBeNull();
    expect(moveTargets([major, recent, mid, general], "m").map((t) => t.tier.id)).toEqual(["g", "j"]);
    expect(moveTargets([general, mid], "nope")).toEqual([]);
  });

  it("names the amounts no tier covers, per basis", () => {
    expect(ladderGaps([general, mid, major])).toEqual([]);
    expect(ladderGaps([general, major, recent])).toEqual([
      { basis: "lifetime", minMinor: 50_000, maxMinor: 500_000 },
      { basis: "rolling_12m", minMinor: 0, maxMinor: 50_000 },
    ]);
    expect(ladderGaps([general])).toEqual([{ basis: "lifetime", minMinor: 50_000, maxMinor: null }]);
  });
});
