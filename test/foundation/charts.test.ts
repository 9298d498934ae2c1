import { describe, expect, it } from "vitest";
import { moneyTick, periodLabel } from "~/features/charts/revenue-chart";
import { tooltipPlacement } from "~/features/charts/series-chart";

describe("chart labels", () => {
  it("reads the API's bucket keys short on the axis and long in the tooltip", () => {
    expect(periodLabel("2026-03-14", "day")).toBe("Mar 14");
    expect(periodLabel("2026-03-14", "day", true)).toBe("14 Mar 2026");
    expect(periodLabel("2026-03", "month")).toBe("Mar 26");
    expect(periodLabel("2026-03", "month", true)).toBe("Mar 2026");
    expect(periodLabel("2026", "year", true)).toBe("2026");
  });

  it("ticks money in whole units", () => {
    expect(moneyTick("USD")(120_000)).toBe("$1,200");
    expect(moneyTick("JPY")(1200)).toBe("¥1,200");
  });
});

describe("tooltip placement", () => {
  const [w, h, width, height] = [160, 58, 600, 256];

  it("sits right of and below the point when it fits", () => {
    expect(tooltipPlacement(100, 50, w, h, width, height)).toEqual({ left: 112, top: 62 });
  });

  it("flips left near the right edge and up near the bottom", () => {
    expect(tooltipPlacement(550, 230, w, h, width, height)).toEqual({ left: 378, top: 160 });
  });

  it("centres above the point, inside the chart, when neither side has room", () => {
    const at = tooltipPlacement(140, 150, w, h, 278, height);
    expect(at).toEqual({ left: 60, top: 80 });
    // A wide tooltip is kept inside the chart's box at both ends.
    expect(tooltipPlacement(20, 150, 250, h, 278, height).left).toBe(0);
    expect(tooltipPlacement(260, 150, 250, h, 278, height).left).toBe(28);
    // No room above a high point: below it instead.
    expect(tooltipPlacement(140, 30, w, h, 278, height).top).toBe(42);
  });
});
