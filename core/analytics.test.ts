import { describe, expect, it } from "vitest";
import { DISTINCT_ERROR_BOUND, estimateDistinct, SKETCH_K, SKETCH_SPACE } from "./analytics";

/** splitmix32: a seeded generator, so the trials are the same on every run. */
function generator(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aafd) >>> 0;
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97) >>> 0;
    return ((z ^ (z >>> 15)) >>> 0) / 2 ** 32;
  };
}

describe("the distinct-donor estimate", () => {
  it("falls within DISTINCT_ERROR_BOUND for about 95% of random donor sets, as the bound says", () => {
    const random = generator(2026);
    const trials = 400;
    let within = 0;
    let sum = 0;
    for (let t = 0; t < trials; t++) {
      const donors = 2_000 + Math.floor(random() * 8_000);
      const values = Float64Array.from({ length: donors }, () => Math.floor(random() * SKETCH_SPACE));
      values.sort();
      const { value, exact } = estimateDistinct(SKETCH_K, values[SKETCH_K - 1] ?? null);
      expect(exact).toBe(false);
      const error = (value - donors) / donors;
      sum += error;
      if (Math.abs(error) <= DISTINCT_ERROR_BOUND) within += 1;
    }
    // Two standard errors: 95.4% in theory; 400 trials put the share within ±3.5% of it.
    expect(within / trials).toBeGreaterThan(0.92);
    expect(within / trials).toBeLessThan(0.99);
    // And unbiased: the mean error is well inside one standard error of the mean.
    expect(Math.abs(sum / trials)).toBeLessThan((DISTINCT_ERROR_BOUND / 2 / Math.sqrt(trials)) * 3);
  });

  it("is exact below SKETCH_K", () => {
    expect(estimateDistinct(SKETCH_K - 1, 123)).toEqual({ value: SKETCH_K - 1, exact: true });
    expect(estimateDistinct(0, null)).toEqual({ value: 0, exact: true });
  });
});
