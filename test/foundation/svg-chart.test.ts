import { expect, it } from "vitest";
import { monotonePath, niceTicks } from "~/features/charts/svg-chart";

it("chart axes use round ticks and a monotone curve", () => {
  expect(niceTicks(0, 8.2e6)).toEqual([0, 2.5e6, 5e6, 7.5e6, 1e7]);
  expect(niceTicks(0, 0)).toEqual([0, 1]);
  expect(niceTicks(-300, 1000)).toEqual([-500, 0, 500, 1000]);
  expect(niceTicks(0, 0.3)).toEqual([0, 0.1, 0.2, 0.3]);
  expect(niceTicks(0, 7)).toEqual([0, 2, 4, 6, 8]);
  expect(monotonePath([0, 1, 2], [0, 1, 0])).toMatch(/^M0,0C/);
});
