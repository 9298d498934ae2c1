import { PAYMENT_METHOD_MAX } from "@core/labels";
import { countedWithin } from "@core/status";
import { addDays, localDay, startOfLocalDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { facts } from "../../worker/ledger/donation-change";
import { rebuildDailyRollups, rollupStatements } from "../../worker/ledger/rollups";
import { changeTokenGuard } from "../../worker/lib/guard";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import {
  bruteDailyTotals,
  bruteListTotals,
  dailyStateOf,
  donationsOf,
  isCounted,
  type ListFilter,
  net,
  type RawDonation,
  storedDailyTotals,
  totalsOf,
} from "./brute";

describe("donations.list totals (rollup path and index path) agree with a brute-force recount", () => {
  it("for every mix of status, mode, currency, trash and date filters", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const now = Date.now();
    const gift = (amountMinor: number, over: Record<string, unknown> = {}) =>
      caller.donations.create({
        donorId: null,
        campaignId: null,
        amountMinor,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: now - 3 * 86_400_000,
        ...over,
      } as never);
    await gift(1_000);
    await gift(2_000, { mode: "test" });
    await gift(3_000, { currency: "EUR" });
    await gift(4_000, { status: "pending" });
    await gift(5_000, { donatedAt: now - 40 * 86_400_000 });
    const refunded = await gift(6_000);
    await caller.donations.updateStatus({ id: refunded.id, status: "refunded", reason: "r" });
    const partial = await gift(7_000, { mode: "test" });
    await caller.donations.updateStatus({
      id: partial.id,
      status: "partially_refunded",
      reason: "p",
      refundAmountMinor: 500,
    });
    const live = await gift(8_000);
    await caller.donations.updateStatus({
      id: live.id,
      status: "partially_refunded",
      reason: "p",
      refundAmountMinor: 1_500,
    });
    const trashed = await gift(9_000);
    await caller.donations.delete({ id: trashed.id });

    const rows = await donationsOf(org);
    const since = new Date(now - 10 * 86_400_000).toISOString().slice(0, 10);
    const sinceMs = Date.parse(`${since}T00:00:00Z`);
    const filters: {
      status?: ("completed" | "pending" | "refunded" | "partially_refunded")[];
      mode?: "live" | "test";
      currency?: string;
      trashed?: boolean;
      from?: string;
    }[] = [];
    for (const status of [
      undefined,
      ["completed"],
      ["completed", "pending"],
      ["refunded"],
      ["partially_refunded"],
    ] as const)
      for (const mode of [undefined, "live", "test"] as const)
        for (const from of [undefined, since])
          filters.push({
            ...(status ? { status: [...status] } : {}),
            ...(mode ? { mode } : {}),
            ...(from ? { from } : {}),
          });
    filters.push(
      { trashed: true },
      { trashed: true, from: since },
      { currency: "EUR" },
      { currency: "USD", from: since },
    );
    for (const f of filters) {
      const set = rows.filter(
        (d: RawDonation) =>
          (f.trashed ? d.trashed_at !== null : d.trashed_at === null) &&
          (!f.status || (f.status as string[]).includes(d.status)) &&
          (!f.mode || d.mode === f.mode) &&
          (!f.currency || d.currency === f.currency) &&
          (!f.from || d.donated_at >= sinceMs),
      );
      const want = [...new Set(set.map((d) => d.currency))].sort().map((cur) => {
        const mine = set.filter((d) => d.currency === cur);
        const counted = mine.filter(isCounted);
        return [cur, mine.length, counted.length, counted.reduce((t, d) => t + net(d), 0)];
      });
      const got = await caller.donations.list({ ...f, pageSize: 100 });
      expect(
        got.totalsByCurrency.map((t) => [t.currency, t.count, t.countedCount, t.countedMinor]),
        JSON.stringify(f),
      ).toEqual(want);
      expect(got.total, JSON.stringify(f)).toBe(set.length);
      expect(got.rows.map((r) => r.id).sort(), JSON.stringify(f)).toEqual(set.map((d) => d.id).sort());
    }
  });

  // Asuncion: on 2024-03-24 00:00 the clocks went back to 23:00 (the 23rd had two 23:xx hours),
  // on 2024-10-06 00:00 jumped to 01:00 (no local midnight). Kiritimati (UTC+14) skipped
  // 1994-12-31 when it crossed the date line; Apia skipped 2011-12-30. Lord Howe moves 30 minutes.
  for (const [tz, days] of [
    ["America/Asuncion", ["2024-03-23", "2024-03-24", "2024-10-05", "2024-10-06", "2024-10-07"]],
    ["Pacific/Kiritimati", ["1994-12-30", "1994-12-31", "1995-01-01", "2026-01-01"]],
    ["Pacific/Apia", ["2011-12-29", "2011-12-30", "2011-12-31"]],
    ["Australia/Lord_Howe", ["2025-04-06", "2025-10-05"]],
  ] as const) {
    it(`for date ranges around midnights that move or vanish (${tz}), from the daily rows and from the scan`, async () => {
      const org = await makeOrg({ timeZone: tz });
      const { caller } = await member(org, "owner");
      let i = 0;
      for (const day of days) {
        for (const delta of [-3_600_000, -1_000, 0, 1_000, 1_800_000, 5_400_000]) {
          i += 1;
          const gift = await caller.donations.create({
            donorId: null,
            campaignId: null,
            amountMinor: 1_000 + i * 7,
            currency: i % 5 === 0 ? "EUR" : "USD",
            paymentMethod: "cash",
            status: i % 4 === 0 ? "pending" : "completed",
            mode: i % 6 === 0 ? "test" : "live",
            donatedAt: startOfLocalDay(day, tz) + delta,
          });
          if (i % 3 === 0 && i % 4 !== 0)
            await caller.donations.updateStatus({
              id: gift.id,
              status: "partially_refunded",
              reason: "p",
              refundAmountMinor: 100,
            });
          if (i % 7 === 0) await caller.donations.delete({ id: gift.id });
        }
      }
      const rows: RawDonation[] = await donationsOf(org);
      // The gifts really sit on both sides of the moved midnights.
      const elsewhere = rows.filter((d) => !(days as readonly string[]).includes(localDay(d.donated_at, tz)));
      expect(elsewhere.length).toBeGreaterThan(0);
      const filters: ListFilter[] = [];
      const all = [
        ...new Set([...days, ...days.map((d) => addDays(d, -1)), ...days.map((d) => addDays(d, 1))]),
      ];
      for (const from of [undefined, ...all])
        for (const to of [undefined, ...all]) {
          if (!from && !to) continue;
          const range = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
          filters.push(range, { ...range, status: ["completed", "partially_refunded"], mode: "live" });
        }
      filters.push(
        { from: days[0], trashed: true },
        { to: days.at(-1), mode: "test" },
        { from: days[0], to: days.at(-1), currency: "EUR" },
      );
      // A day that does not exist in the calendar is refused (the shared calendar day, decision 019).
      expect(
        await codeOf(
          caller.donations.list({
            from: `${days[0]?.slice(0, 4)}-02-30`,
            to: `${days.at(-1)?.slice(0, 4)}-12-32`,
          }),
        ),
      ).toBe("BAD_REQUEST");
      // So is a source outside the stored set, or a method longer than any gift stores
      // (core/labels.ts: the reports' filters refuse the same).
      expect(await codeOf(caller.donations.list({ source: "carrier-pigeon" } as never))).toBe("BAD_REQUEST");
      expect(await codeOf(caller.donations.list({ paymentMethod: "x".repeat(PAYMENT_METHOD_MAX + 1) }))).toBe(
        "BAD_REQUEST",
      );
      const check = async (label: string) => {
        for (const f of filters) {
          const got = await caller.donations.list({ ...f, pageSize: 100 });
          const norm = {
            ...f,
            ...(f.from ? { from: addDays(f.from, 0) } : {}),
            ...(f.to ? { to: addDays(f.to, 0) } : {}),
          };
          const want = bruteListTotals(rows, norm, tz);
          expect(totalsOf(got), `${label} ${JSON.stringify(f)}`).toEqual(want);
          expect(got.total, `${label} ${JSON.stringify(f)}`).toBe(
            want.reduce((n, t) => n + (t[1] as number), 0),
          );
          expect(got.rows.length, `${label} ${JSON.stringify(f)}`).toBe(Math.min(100, got.total));
        }
      };
      // Kept by delta since the organization was created.
      expect(await dailyStateOf(org)).toBe(tz);
      const byDelta = await storedDailyTotals(org);
      expect(byDelta).toEqual(bruteDailyTotals(rows, tz));
      await check("daily rows");
      // Not built: the list scans the donations, with the same answers.
      await testEnv.DB.prepare("DELETE FROM donation_daily_state WHERE organization_id = ?").bind(org).run();
      await check("scan");
      // The rebuild (SQL with the zone's offset spans) writes exactly what the deltas kept.
      expect(await rebuildDailyRollups(testEnv.DB, org, tz)).toBe(true);
      expect(await dailyStateOf(org)).toBe(tz);
      expect(await storedDailyTotals(org)).toEqual(byDelta);
      await check("rebuilt");
    }, 60_000);
  }

  it("keys gifts outside four-digit years apart, and filters near them scan", async () => {
    const org = await makeOrg({ timeZone: "Asia/Tokyo" });
    const { caller } = await member(org, "owner");
    // (Gifts cannot be dated in the future: '9999-99-99' is checked in core/time.test.ts.)
    await caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 500,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.UTC(2026, 0, 1),
    });
    // Gifts before 1970 are refused now (decision 019); rows stored before that rule keep their
    // keys: written here with the statements a create batches.
    for (const [i, at] of [Date.UTC(999, 5, 1), Date.UTC(1000, 0, 1, 20)].entries()) {
      const row = {
        id: `old-${i}-${org}`,
        organization_id: org,
        donor_id: null,
        campaign_id: null,
        status: "completed",
        mode: "live",
        trashed_at: null,
        amount_minor: 500,
        refunded_minor: 0,
        currency: "USD",
        donated_at: at,
        // The columns' defaults, which the INSERT below leaves to the table.
        payment_method: "card",
        frequency: "one_time",
      };
      await testEnv.DB.batch([
        testEnv.DB.prepare(
          `INSERT INTO donation (id, organization_id, number, amount_minor, currency, status, source, mode, donated_at, created_at, updated_at, change_token)
           VALUES (?, ?, ?, 500, 'USD', 'completed', 'manual', 'live', ?, ?, ?, ?)`,
        ).bind(row.id, org, 100 + i, at, Date.now(), Date.now(), row.id),
        // Rollup deltas apply only under the change token the row carries (decision 020).
        ...rollupStatements(
          testEnv.DB,
          null,
          facts(row as never),
          "Asia/Tokyo",
          changeTokenGuard(row.id, row.id),
        ),
      ]);
    }
    const rows = await donationsOf(org);
    expect(await storedDailyTotals(org)).toEqual(bruteDailyTotals(rows, "Asia/Tokyo"));
    expect(
      Object.keys(await storedDailyTotals(org))
        .map((k) => k.slice(0, 10))
        .sort(),
    ).toEqual(["0000-00-00", "2026-01-01"]);
    for (const f of [
      { from: "2025-12-31" },
      { to: "2026-01-01" },
      { from: "1000-01-03", to: "9998-12-30" },
      { from: "1000-01-01" },
      { to: "9999-01-01" },
    ]) {
      const got = await caller.donations.list(f);
      const want = rows.filter(
        (d) =>
          (!f.from || d.donated_at >= startOfLocalDay(f.from, "Asia/Tokyo")) &&
          (!f.to || d.donated_at < startOfLocalDay(addDays(f.to, 1), "Asia/Tokyo")),
      );
      expect(got.total, JSON.stringify(f)).toBe(want.length);
    }
    expect(await rebuildDailyRollups(testEnv.DB, org, "Asia/Tokyo")).toBe(false);
    expect(await dailyStateOf(org)).toBeUndefined();
  });

  it("reduces 'counted' by what the filters imply", () => {
    expect(countedWithin({ trashed: true })).toBeNull();
    expect(countedWithin({ mode: "test" })).toBeNull();
    expect(countedWithin({ status: ["pending", "refunded"] })).toBeNull();
    expect(countedWithin({ status: ["completed"], mode: "live" })).toBe("");
    expect(countedWithin({ status: ["completed"] })).toBe("d.mode = 'live'");
    expect(countedWithin({ status: ["completed", "pending"], mode: "live" })).toBe(
      "d.status IN ('completed','partially_refunded')",
    );
    expect(countedWithin({})).toBe("d.status IN ('completed','partially_refunded') AND d.mode = 'live'");
  });
});
