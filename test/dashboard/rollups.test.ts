/**
 * Issue 27, decision 032: the dashboard's estimates and the rules they stand on. The property test
 * (test/donations/rollups.property.test.ts) proves the rollups equal a rebuild and the fast answers
 * equal the exact ones for a few donors; here the estimates are tried where they estimate — tens of
 * thousands of donors, far above SKETCH_K — on deterministic sketch values, so the test cannot be
 * lucky or unlucky.
 */
import {
  AMOUNT_BUCKETS,
  amountBucket,
  DISTINCT_ERROR_BOUND,
  estimateDistinct,
  histogramMedian,
  MEDIAN_ERROR_BOUND,
  rangeParts,
  SKETCH_K,
  signedRangeParts,
} from "@core/analytics";
import { addDays } from "@core/time";
import { describe, expect, it } from "vitest";
import { donorSample, partsOf, topDonors } from "../../worker/dashboard/rollup-queries";
import { donorSetStatsStatements } from "../../worker/ledger/donor-stats";
import { rebuildDailyRollups } from "../../worker/ledger/rollups";
import { makeOrg, numberedDonors, sketchOf } from "../fixtures";
import { testEnv } from "../helpers";

describe("the net-amount histogram", () => {
  it("is the same list in the code and in the table the SQL rebuilds look amounts up in", async () => {
    const { results } = await testEnv.DB.prepare("SELECT lo, bucket FROM analytics_bucket ORDER BY lo").all<{
      lo: number;
      bucket: number;
    }>();
    expect(results.map((r) => r.lo)).toEqual([...AMOUNT_BUCKETS]);
    expect(results.map((r) => r.bucket)).toEqual(AMOUNT_BUCKETS.map((_, i) => i));
  });

  it("puts an amount in the bucket whose bounds hold it, each bucket at most 2.5% wide", () => {
    for (const net of [0, 1, 2, 39, 40, 41, 99, 100, 101, 4_999, 5_000, 12_345, 1_000_000, 2 ** 40]) {
      const b = amountBucket(net);
      const lo = AMOUNT_BUCKETS[b] as number;
      const next = AMOUNT_BUCKETS[b + 1] ?? Number.POSITIVE_INFINITY;
      expect(lo <= net && net < next, `${net} in [${lo}, ${next})`).toBe(true);
      if (lo > 0) expect((next - 1) / lo).toBeLessThanOrEqual(1 + MEDIAN_ERROR_BOUND);
    }
    expect(amountBucket(-5)).toBe(0);
  });

  it("finds the median within the bound, and exactly when the middle bucket holds one amount", () => {
    // 1 001 gifts of random amounts: the median of the histogram against the sorted list's.
    let x = 7;
    const amounts = Array.from({ length: 1_001 }, () => {
      x = (x * 48_271) % 2_147_483_647;
      return 100 + (x % 90_000);
    });
    const rows = new Map<number, { bucket: number; count: number; amount: number }>();
    for (const a of amounts) {
      const b = amountBucket(a);
      const r = rows.get(b) ?? { bucket: b, count: 0, amount: 0 };
      r.count += 1;
      r.amount += a;
      rows.set(b, r);
    }
    const truth = [...amounts].sort((a, b) => a - b)[500] as number;
    const got = histogramMedian([...rows.values()]) as number;
    expect(Math.abs(got - truth) / truth).toBeLessThanOrEqual(MEDIAN_ERROR_BOUND);
    // A common $50: every gift of the middle bucket is 5 000.
    expect(
      histogramMedian([
        { bucket: amountBucket(2_000), count: 3, amount: 6_000 },
        { bucket: amountBucket(5_000), count: 5, amount: 25_000 },
        { bucket: amountBucket(9_000), count: 3, amount: 27_000 },
      ]),
    ).toBe(5_000);
    expect(histogramMedian([])).toBeNull();
  });
});

describe("ranges as the rollups read them", () => {
  it("are whole months and the days left at either end", () => {
    expect(rangeParts("2026-10-29", "9999-99-99")).toEqual({
      months: ["2026-11", "9999-99"],
      days: [["2026-10-29", "2026-10-31"]],
    });
    expect(rangeParts("0000-01-01", "9999-99-99")).toEqual({ months: ["0000-00", "9999-99"], days: [] });
    expect(rangeParts("2025-03-14", "2026-02-02")).toEqual({
      months: ["2025-04", "2026-01"],
      days: [
        ["2025-03-14", "2025-03-31"],
        ["2026-02-01", "2026-02-02"],
      ],
    });
    expect(rangeParts("2026-11-05", "2026-11-20")).toEqual({
      months: null,
      days: [["2026-11-05", "2026-11-20"]],
    });
    expect(rangeParts("2026-02-01", "2026-02-28")).toEqual({ months: ["2026-02", "2026-02"], days: [] });
    expect(rangeParts("2024-02-01", "2024-02-28")).toEqual({
      months: null,
      days: [["2024-02-01", "2024-02-28"]],
    });
    expect(rangeParts("2025-12-31", "2026-01-31")).toEqual({
      months: ["2026-01", "2026-01"],
      days: [["2025-12-31", "2025-12-31"]],
    });
  });

  it("for sums, read a mostly covered edge month as the month less its other days, covering each day once", () => {
    // The last 12 months up to the 27th: the month less the three days after today.
    expect(signedRangeParts("2025-11-28", "2026-11-27")).toEqual([
      ["m", "2025-12", "2026-10", 1],
      ["d", "2025-11-28", "2025-11-30", 1],
      ["m", "2026-11", "2026-11", 1],
      ["d", "2026-11-28", "2026-11-30", -1],
    ]);
    // Days only, across two months: each month's share on its own.
    expect(signedRangeParts("2026-01-03", "2026-02-04")).toEqual([
      ["m", "2026-01", "2026-01", 1],
      ["d", "2026-01-01", "2026-01-02", -1],
      ["d", "2026-02-01", "2026-02-04", 1],
    ]);
    expect(signedRangeParts("0000-01-01", "9999-99-99")).toEqual([["m", "0000-00", "9999-99", 1]]);
    // Every range: each day inside counted once, each day outside not at all, and never more day
    // rows than the plain parts read.
    let x = 5;
    const rnd = (n: number) => {
      x = (x * 48_271) % 2_147_483_647;
      return x % n;
    };
    const window = Array.from({ length: 800 }, (_, i) => addDays("2025-06-01", i));
    for (let i = 0; i < 300; i++) {
      const from = addDays("2025-07-01", rnd(500));
      const to = addDays(from, rnd(i % 3 ? 70 : 400));
      const parts = signedRangeParts(from, to);
      for (const day of window) {
        const covered = parts.reduce(
          (n, [grain, a, b, sign]) =>
            n +
            ((grain === "m" ? day.slice(0, 7) >= a && day.slice(0, 7) <= b : day >= a && day <= b)
              ? sign
              : 0),
          0,
        );
        expect(covered, `${from}..${to} on ${day}`).toBe(day >= from && day <= to ? 1 : 0);
      }
      const dayRows = (p: [string, string, string, ...unknown[]][]) =>
        p
          .filter(([g]) => g === "d")
          .reduce((n, [, a, b]) => n + (Date.parse(b) - Date.parse(a)) / 86_400_000 + 1, 0);
      const plain = rangeParts(from, to).days.map(([a, b]) => ["d", a, b] as [string, string, string]);
      expect(dayRows(parts), `${from}..${to}`).toBeLessThanOrEqual(dayRows(plain));
    }
  });
});

/**
 * An organization whose donor_period holds `donors` donors over six months and their first days:
 * donor n gives in month m when (n × 7 + m) % 3 ≠ 0, on day 2 of the month when n % 5 = m % 5, with
 * amount 1 000 + n % 997 (and the donors n % 1 000 = 0 give 10× as much, in every month).
 */
async function syntheticOrg(donors: number) {
  const org = await makeOrg({ timeZone: "UTC" });
  const rows: [string, string, string, number, number, number, number][] = [];
  for (let n = 1; n <= donors; n++) {
    for (let m = 1; m <= 6; m++) {
      const month = `2026-0${m}`;
      const big = n % 1_000 === 0;
      if (big || (n * 7 + m) % 3 !== 0)
        rows.push(["m", month, `${org}-${n}`, sketchOf(n), 1, big ? 100_000 : 1_000 + (n % 997), n % 2]);
      if (n % 5 === m % 5)
        rows.push(["d", `${month}-02`, `${org}-${n}`, sketchOf(n), 1, 1_000 + (n % 997), n % 2]);
    }
  }
  await numberedDonors(org, donors).run();
  for (let i = 0; i < rows.length; i += 5_000)
    await testEnv.DB.prepare(
      `INSERT INTO donor_period (organization_id, currency, grain, period, donor_id, sketch, gift_count, amount_minor, one_time_count)
       SELECT ?1, 'USD', value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6 FROM json_each(?2)`,
    )
      .bind(org, JSON.stringify(rows.slice(i, i + 5_000)))
      .run();
  return { org, rows };
}

describe("distinct donors from the sketch", () => {
  it("are exact below SKETCH_K and within the stated bound above it, over months, days and both", async () => {
    const { org, rows } = await syntheticOrg(30_000);
    for (const [from, to] of [
      ["2026-01-01", "2026-06-30"],
      ["2026-02-01", "2026-03-31"],
      ["2026-03-02", "2026-03-02"],
      // Days only, 6 000 donors on the 2nd: the guessed bound from the range's row count.
      ["2026-03-01", "2026-03-10"],
      ["2026-02-02", "2026-04-01"],
      ["2026-01-02", "2026-04-02"],
    ] as const) {
      const parts = JSON.parse(partsOf(from, to)) as [string, string, string][];
      const inRange = new Set(
        rows
          .filter(([g, p]) => parts.some(([pg, lo, hi]) => pg === g && p >= lo && p <= hi))
          .map(([, , donor]) => donor),
      );
      const s = (await donorSample(testEnv.DB, org, "USD", partsOf(from, to)).first()) as {
        n: number;
        kth: number | null;
        ot: number;
      };
      const got = estimateDistinct(s.n, s.kth);
      const at = `${from}..${to}: ${inRange.size} donors, estimated ${got.value}`;
      if (inRange.size < SKETCH_K) expect(got, at).toEqual({ value: inRange.size, exact: true });
      else {
        expect(got.exact, at).toBe(false);
        expect(s.n, at).toBe(SKETCH_K);
        expect(Math.abs(got.value - inRange.size) / inRange.size, at).toBeLessThanOrEqual(
          DISTINCT_ERROR_BOUND,
        );
        // Half the donors give one-time gifts (n odd): the sample's share says so, within the bound.
        expect(Math.abs(s.ot / s.n - 0.5), at).toBeLessThanOrEqual(DISTINCT_ERROR_BOUND);
      }
    }
  }, 60_000);

  it("lists the top donors with their totals over the range, and says when the list is proven", async () => {
    // 3 000 donors giving monthly over six months (amount 1 000 + n % 997), five of them 10× as
    // much, and a day's gifts on the 2nd; the rollups are built from the gifts as a rebuild builds them.
    const org = await makeOrg({ timeZone: "UTC" });
    await testEnv.DB.batch([
      numberedDonors(org, 3_000),
      testEnv.DB.prepare(
        `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3000),
                        m(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM m WHERE k < 6)
         INSERT INTO donation (id, organization_id, number, donor_id, amount_minor, currency, status, source, mode, donated_at, created_at, updated_at)
         SELECT ?1 || '-' || n || '-' || k, ?1, n * 10 + k, ?1 || '-' || n, CASE WHEN n % 600 = 0 THEN 100000 ELSE 1000 + n % 997 END,
                'USD', 'completed', 'manual', 'live', ?2 + (k - 1) * 2678400000 + (n % 20) * 86400000, 0, 0
           FROM s CROSS JOIN m WHERE n % 600 = 0 OR (n * 7 + k) % 3 != 0`,
      ).bind(org, Date.UTC(2026, 0, 2)),
    ]);
    await keepDonorStats(org);
    expect(await rebuildDailyRollups(testEnv.DB, org, "UTC")).toBe(true);
    const { results: gifts } = await testEnv.DB.prepare(
      "SELECT donor_id AS donor, amount_minor AS amount, donated_at AS at FROM donation WHERE organization_id = ?",
    )
      .bind(org)
      .all<{ donor: string; amount: number; at: number }>();
    for (const [from, to] of [
      ["2026-01-02", "2026-04-02"],
      ["2026-02-01", "2026-05-31"],
      ["2026-03-05", "2026-03-20"],
    ] as const) {
      const fromMs = Date.parse(`${from}T00:00:00Z`);
      const untilMs = Date.parse(`${to}T00:00:00Z`) + 86_400_000;
      const totals = new Map<string, number>();
      for (const g of gifts)
        if (g.at >= fromMs && g.at < untilMs) totals.set(g.donor, (totals.get(g.donor) ?? 0) + g.amount);
      const want = [...totals.values()].sort((a, b) => b - a).slice(0, 5);
      const { results } = await topDonors(testEnv.DB, org, "USD", partsOf(from, to), fromMs, untilMs).all<{
        total: number;
        bound: number;
      }>();
      // The five who give 10× stand out in every period: the list is exact and proven so.
      expect(
        results.map((r) => r.total),
        `${from}..${to}`,
      ).toEqual(want);
      const last = results.at(-1) as { total: number; bound: number };
      expect(last.total >= last.bound, `${from}..${to}: ${last.total} vs bound ${last.bound}`).toBe(true);
    }
  }, 60_000);

  it("sums only the candidates that can make the list, and lists what summing every candidate lists", async () => {
    // 400 donors over four months, amounts spread wide (a few large gifts in single periods), and
    // gifts that raise some donors' lifetimes without counting here: EUR gifts, and gifts before the
    // ranges. The floor drops candidates by lifetime; the list must be what ranking every candidate
    // (each period's five largest givers, ties included) by its total gives.
    const org = await makeOrg({ timeZone: "UTC" });
    let x = 11;
    const rnd = (n: number) => {
      x = (x * 48_271) % 2_147_483_647;
      return x % n;
    };
    const start = Date.UTC(2026, 2, 1);
    const gifts: { id: string; donor: string; amount: number; currency: string; at: number }[] = [];
    for (let i = 0; i < 2_400; i++) {
      const donor = `${org}-${rnd(400)}`;
      const big = rnd(50) === 0;
      gifts.push({
        id: `${org}-g${i}`,
        donor,
        amount: big ? 50_000 + rnd(200_000) : 500 + rnd(5_000),
        currency: rnd(10) === 0 ? "EUR" : "USD",
        at: (rnd(8) === 0 ? start - 200 * 86_400_000 : start) + rnd(122) * 86_400_000 + rnd(86_400_000),
      });
    }
    await testEnv.DB.batch([
      numberedDonors(org, 400, 0),
      testEnv.DB.prepare(
        `INSERT INTO donation (id, organization_id, number, donor_id, amount_minor, currency, status, source, mode, donated_at, created_at, updated_at)
         SELECT j.value ->> 'id', ?1, j.key + 1, j.value ->> 'donor', j.value ->> 'amount', j.value ->> 'currency',
                'completed', 'manual', 'live', j.value ->> 'at', 0, 0
           FROM json_each(?2) j`,
      ).bind(org, JSON.stringify(gifts)),
    ]);
    await keepDonorStats(org);
    expect(await rebuildDailyRollups(testEnv.DB, org, "UTC")).toBe(true);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    let droppable = 0;
    for (const [from, to] of [
      ["2026-03-01", "2026-06-30"],
      ["2026-03-17", "2026-05-09"],
      ["2026-04-03", "2026-04-21"],
      ["2025-01-01", "2026-06-30"],
    ] as const) {
      const fromMs = Date.parse(`${from}T00:00:00Z`);
      const untilMs = Date.parse(`${to}T00:00:00Z`) + 86_400_000;
      // The periods the rollups read: whole months and edge days (core/analytics.ts rangeParts).
      const { months, days } = rangeParts(from, to);
      const periodOf = (at: number) => {
        const d = day(at);
        if (d < from || d > to) return null;
        if (months && d.slice(0, 7) >= months[0] && d.slice(0, 7) <= months[1]) return d.slice(0, 7);
        return days.some(([a, b]) => d >= a && d <= b) ? d : null;
      };
      const byPeriod = new Map<string, Map<string, number>>();
      const totals = new Map<string, { total: number; gifts: number }>();
      for (const g of gifts) {
        const p = g.currency === "USD" ? periodOf(g.at) : null;
        if (!p) continue;
        const amounts = byPeriod.get(p) ?? new Map<string, number>();
        amounts.set(g.donor, (amounts.get(g.donor) ?? 0) + g.amount);
        byPeriod.set(p, amounts);
        const t = totals.get(g.donor) ?? { total: 0, gifts: 0 };
        totals.set(g.donor, { total: t.total + g.amount, gifts: t.gifts + 1 });
      }
      const candidates = new Set<string>();
      for (const amounts of byPeriod.values()) {
        const fifth = [...amounts.values()].sort((a, b) => b - a)[4] ?? 0;
        for (const [donor, amount] of amounts) if (amount >= fifth) candidates.add(donor);
      }
      const want = [...candidates]
        .map((id) => ({ id, ...(totals.get(id) as { total: number; gifts: number }) }))
        .sort((a, b) => b.total - a.total || (a.id < b.id ? -1 : 1))
        .slice(0, 5);
      // Candidates whose lifetime is below the fifth total: the ones the floor is there to drop.
      const { results: below } = await testEnv.DB.prepare(
        "SELECT id FROM donor WHERE id IN (SELECT value FROM json_each(?1)) AND lifetime_minor < ?2",
      )
        .bind(JSON.stringify([...candidates]), want.at(-1)?.total ?? 0)
        .all();
      droppable += below.length;
      const { results } = await topDonors(testEnv.DB, org, "USD", partsOf(from, to), fromMs, untilMs).all<{
        id: string;
        total: number;
        gifts: number;
      }>();
      expect(
        results.map((r) => ({ id: r.id, total: r.total, gifts: r.gifts })),
        `${from}..${to}`,
      ).toEqual(want);
    }
    // Otherwise the world never tried the floor.
    expect(droppable).toBeGreaterThan(0);
  }, 60_000);
});

/** Donor stats as every change's batch keeps them (worker/ledger/donor-stats.ts), for gifts the test wrote in SQL. */
async function keepDonorStats(org: string) {
  const { results } = await testEnv.DB.prepare("SELECT id FROM donor WHERE organization_id = ?")
    .bind(org)
    .all<{ id: string }>();
  await testEnv.DB.batch(
    donorSetStatsStatements(
      testEnv.DB,
      org,
      results.map((r) => r.id),
      { sql: () => "1", args: [] },
    ),
  );
}
