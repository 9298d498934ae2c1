/**
 * Dashboard analytics against a brute force over the donation table, for organizations on both
 * sides of the date line (gifts a second before and after local midnight) and in two currencies
 * (amounts are never added across currencies).
 */

import { addDays, localDay, startOfLocalDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { codeOf, trpcError, trpcHttp } from "../helpers";
import {
  allTimeOf,
  bruteAllTime,
  donationsOf,
  isCounted,
  median,
  net,
  platformAdmin,
  type RawDonation,
} from "./brute";

type Caller = Awaited<ReturnType<typeof member>>["caller"];

/** The last `days` local days including today, and the same number of days before them. */
function lastDays(tz: string, days: number) {
  const today = localDay(Date.now(), tz);
  return { from: addDays(today, -(days - 1)), to: today, prevFrom: addDays(today, -(2 * days - 1)) };
}

/** Everything summary() reports, recomputed from raw rows for one currency and local-day window. */
function brute(
  rows: RawDonation[],
  tz: string,
  currency: string,
  { from, to, prevFrom }: { from: string; to: string; prevFrom: string },
) {
  const day = (d: RawDonation) => localDay(d.donated_at, tz);
  const inPeriod = (d: RawDonation) => day(d) >= from && day(d) <= to;
  const inCur = rows.filter((d) => d.currency === currency);
  const counted = inCur.filter((d) => isCounted(d) && inPeriod(d));
  const prev = inCur.filter((d) => isCounted(d) && day(d) >= prevFrom && day(d) < from);
  const raised = counted.reduce((t, d) => t + net(d), 0);
  const series: Record<string, number> = {};
  for (const d of counted) series[day(d)] = (series[day(d)] ?? 0) + net(d);
  const byMethod: Record<string, number> = {};
  for (const d of counted) byMethod[d.payment_method] = (byMethod[d.payment_method] ?? 0) + net(d);
  const byStatus: Record<string, number> = {};
  for (const d of inCur.filter((x) => x.mode === "live" && x.trashed_at === null && inPeriod(x)))
    byStatus[d.status] = (byStatus[d.status] ?? 0) + 1;
  const split = (recurring: boolean) => {
    const xs = counted.filter((d) => (d.frequency !== "one_time") === recurring);
    return { count: xs.length, amountMinor: xs.reduce((t, d) => t + net(d), 0) };
  };
  const refunded = inCur.filter(
    (d) => d.mode === "live" && d.trashed_at === null && d.refunded_minor > 0 && inPeriod(d),
  );
  const prevRaised = prev.reduce((t, d) => t + net(d), 0);
  return {
    raisedMinor: raised,
    donations: counted.length,
    uniqueDonors: new Set(counted.map((d) => d.donor_id).filter(Boolean)).size,
    averageMinor: counted.length ? Math.round(raised / counted.length) : 0,
    medianMinor: median(counted.map(net)),
    changeRaised: prevRaised ? (raised - prevRaised) / prevRaised : null,
    series,
    byMethod,
    byStatus,
    oneTime: split(false),
    recurring: split(true),
    refunds: { count: refunded.length, amountMinor: refunded.reduce((t, d) => t + d.refunded_minor, 0) },
  };
}

async function seedAroundMidnights(caller: Caller, tz: string) {
  const today = localDay(Date.now(), tz);
  const donors: string[] = [];
  for (const n of ["Kiri", "Lou", "Max"]) {
    const d = await caller.donors.create({
      data: {
        firstName: n,
        lastName: tz.replace(/\W/g, ""),
        email: `${n}-${Date.now()}-${tz.length}@example.test`,
      },
    });
    if (!d.created) throw new Error("expected a new donor");
    donors.push(d.id);
  }
  const ids: string[] = [];
  let i = 0;
  // Days on the edges of the 7- and 30-day windows and their previous periods, both sides of midnight.
  for (const back of [0, 1, 6, 7, 13, 14, 29, 30, 59, 60]) {
    const midnight = startOfLocalDay(addDays(today, -back), tz);
    for (const offset of back === 0 ? [1000] : [-1000, 1000]) {
      for (const currency of ["USD", "EUR"] as const) {
        i += 1;
        const d = await caller.donations.create({
          donorId: donors[i % 3] ?? null,
          campaignId: null,
          amountMinor: 1_000 + i * 137,
          currency,
          paymentMethod: (["cash", "check", "bank_transfer"] as const)[i % 3] ?? "cash",
          frequency: i % 4 === 0 ? "monthly" : "one_time",
          status: i % 9 === 0 ? "pending" : "completed",
          mode: i % 11 === 0 ? "test" : "live",
          donatedAt: midnight + offset,
        });
        ids.push(d.id);
      }
    }
  }
  // Refunds (partial and full), a dispute and a trashed gift shape the counted set.
  const live = await caller.donations.list({ status: ["completed"], mode: "live", pageSize: 100 });
  const [a, b, c, e] = live.rows;
  if (!a || !b || !c || !e) throw new Error("seed too small");
  await caller.donations.updateStatus({
    id: a.id,
    status: "partially_refunded",
    refundAmountMinor: 333,
    reason: "part",
  });
  await caller.donations.updateStatus({ id: b.id, status: "refunded", reason: "all" });
  await caller.donations.updateStatus({ id: c.id, status: "disputed" });
  await caller.donations.delete({ id: e.id });
  return ids;
}

describe("dashboard analytics across time zones and currencies", () => {
  for (const tz of ["Pacific/Auckland", "America/Los_Angeles"]) {
    it(`matches a brute force in ${tz}, per currency, and every tile's list shows the same numbers`, async () => {
      const org = await makeOrg({ timeZone: tz });
      const { caller } = await member(org, "owner");
      await seedAroundMidnights(caller, tz);
      const rows = await donationsOf(org);
      for (const currency of ["USD", "EUR"]) {
        for (const days of [7, 30]) {
          const s = await caller.dashboard.summary({ days, currency });
          const b = brute(rows, tz, currency, lastDays(tz, days));
          const at = `${tz} ${currency} ${days}d`;
          expect(s.currency).toBe(currency);
          expect(s.currencies, at).toEqual(["EUR", "USD"]);
          expect(
            {
              raisedMinor: s.raisedMinor,
              donations: s.donations,
              uniqueDonors: s.uniqueDonors,
              averageMinor: s.averageMinor,
              medianMinor: s.medianMinor,
              oneTime: { count: s.oneTime.count, amountMinor: s.oneTime.amountMinor },
              recurring: { count: s.recurring.count, amountMinor: s.recurring.amountMinor },
              refunds: s.refunds,
            },
            at,
          ).toEqual({
            raisedMinor: b.raisedMinor,
            donations: b.donations,
            uniqueDonors: b.uniqueDonors,
            averageMinor: b.averageMinor,
            medianMinor: b.medianMinor,
            oneTime: b.oneTime,
            recurring: b.recurring,
            refunds: b.refunds,
          });
          expect(s.change.raised, at).toBeCloseTo(b.changeRaised as number, 10);
          expect(s.bucket).toBe("day");
          expect(s.series).toHaveLength(days);
          expect(
            Object.fromEntries(s.series.filter((p) => p.raised !== 0).map((p) => [p.period, p.raised])),
            at,
          ).toEqual(b.series);
          expect(Object.fromEntries(s.byMethod.map((m) => [m.method, m.amount])), at).toEqual(b.byMethod);
          expect(Object.fromEntries(s.byStatus.map((m) => [m.status, m.count])), at).toEqual(b.byStatus);
          // The tiles link to /donations with these filters: the list must agree with the tile.
          const list = await caller.donations.list({
            from: s.from ?? undefined,
            to: s.to,
            status: ["completed", "partially_refunded"],
            mode: "live",
            currency,
          });
          expect(list.total, at).toBe(s.donations);
          expect(list.totalsByCurrency, at).toEqual([
            { currency, count: s.donations, countedCount: s.donations, countedMinor: s.raisedMinor },
          ]);
          const recurring = await caller.donations.list({
            from: s.from ?? undefined,
            to: s.to,
            status: ["completed", "partially_refunded"],
            mode: "live",
            currency,
            frequency: "recurring",
          });
          expect(recurring.total, at).toBe(s.recurring.count);
        }
      }
      // The default currency is the organization's; all time covers every counted gift.
      const all = await caller.dashboard.summary({ days: 0 });
      expect(all.currency).toBe("USD");
      expect(all.from).toBeNull();
      for (const currency of ["USD", "EUR"]) {
        const s = currency === "USD" ? all : await caller.dashboard.summary({ days: 0, currency });
        expect(allTimeOf(s), `${tz} ${currency} all time`).toEqual(bruteAllTime(rows, currency));
      }
      const usd = rows.filter((d) => d.currency === "USD" && isCounted(d));
      expect(all.raisedMinor).toBe(usd.reduce((t, d) => t + net(d), 0));
      expect(all.series.reduce((t, p) => t + p.raised, 0)).toBe(all.raisedMinor);
      expect(all.recent.length).toBeGreaterThan(0);
    }, 120_000);
  }

  it("buckets long periods by month and very long ones by year, zero-filled", async () => {
    const org = await makeOrg({ timeZone: "Pacific/Auckland" });
    const { caller } = await member(org, "owner");
    const today = localDay(Date.now(), "Pacific/Auckland");
    for (const back of [3, 200, 2400]) {
      await caller.donations.create({
        donorId: null,
        campaignId: null,
        amountMinor: 1_000 * back,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: startOfLocalDay(addDays(today, -back), "Pacific/Auckland") + 1000,
      });
    }
    const year = await caller.dashboard.summary({ days: 365 });
    expect(year.bucket).toBe("month");
    expect(year.series.length).toBeGreaterThanOrEqual(12);
    expect(year.series.length).toBeLessThanOrEqual(13);
    expect(year.series.every((p) => /^\d{4}-\d{2}$/.test(p.period))).toBe(true);
    expect(year.series.reduce((t, p) => t + p.raised, 0)).toBe(203_000);
    const all = await caller.dashboard.summary({ days: 0 });
    expect(all.bucket).toBe("year");
    expect(all.series.every((p) => /^\d{4}$/.test(p.period))).toBe(true);
    expect(all.series.reduce((t, p) => t + p.raised, 0)).toBe(2_603_000);
    expect(all.series.some((p) => p.raised === 0)).toBe(true);
  });
});

describe("dashboard custom periods", () => {
  it("matches a brute force over the chosen local days, compares with the same number of days before, and its lists agree", async () => {
    const tz = "America/Los_Angeles";
    const org = await makeOrg({ timeZone: tz });
    const { caller } = await member(org, "owner");
    await seedAroundMidnights(caller, tz);
    const rows = await donationsOf(org);
    const today = localDay(Date.now(), tz);
    // [first, last] days back: edges of the seeded days on both sides of midnight, one day, to today.
    for (const [fromBack, toBack] of [
      [13, 7],
      [6, 6],
      [59, 1],
      [29, 0],
    ] as const) {
      const from = addDays(today, -fromBack);
      const to = addDays(today, -toBack);
      const length = fromBack - toBack + 1;
      const prevFrom = addDays(from, -length);
      for (const currency of ["USD", "EUR"]) {
        const at = `${currency} ${from}..${to}`;
        const s = await caller.dashboard.summary({ from, to, currency });
        const b = brute(rows, tz, currency, { from, to, prevFrom });
        expect({ days: s.days, from: s.from, to: s.to, previous: s.previous }, at).toEqual({
          days: null,
          from,
          to,
          previous: { from: prevFrom, to: addDays(from, -1) },
        });
        expect(
          {
            raisedMinor: s.raisedMinor,
            donations: s.donations,
            uniqueDonors: s.uniqueDonors,
            averageMinor: s.averageMinor,
            medianMinor: s.medianMinor,
            oneTime: { count: s.oneTime.count, amountMinor: s.oneTime.amountMinor },
            recurring: { count: s.recurring.count, amountMinor: s.recurring.amountMinor },
            refunds: s.refunds,
          },
          at,
        ).toEqual({
          raisedMinor: b.raisedMinor,
          donations: b.donations,
          uniqueDonors: b.uniqueDonors,
          averageMinor: b.averageMinor,
          medianMinor: b.medianMinor,
          oneTime: b.oneTime,
          recurring: b.recurring,
          refunds: b.refunds,
        });
        if (b.changeRaised === null) expect(s.change.raised, at).toBeNull();
        else expect(s.change.raised, at).toBeCloseTo(b.changeRaised, 10);
        expect(s.series, at).toHaveLength(length);
        expect([s.series[0]?.period, s.series.at(-1)?.period], at).toEqual([from, to]);
        expect(
          Object.fromEntries(s.series.filter((p) => p.raised !== 0).map((p) => [p.period, p.raised])),
          at,
        ).toEqual(b.series);
        expect(Object.fromEntries(s.byMethod.map((m) => [m.method, m.amount])), at).toEqual(b.byMethod);
        expect(Object.fromEntries(s.byStatus.map((m) => [m.status, m.count])), at).toEqual(b.byStatus);
        // "Recent donations" are the period's latest (any status or currency, not in the trash).
        const inPeriod = rows
          .filter(
            (d) => !d.trashed_at && localDay(d.donated_at, tz) >= from && localDay(d.donated_at, tz) <= to,
          )
          .sort((x, y) => y.donated_at - x.donated_at);
        expect(
          s.recent.map((r) => r.donatedAt),
          at,
        ).toEqual(inPeriod.slice(0, 8).map((d) => d.donated_at));
        // The tiles link to /donations with the same days: the list agrees with the tile.
        const list = await caller.donations.list({
          from: s.from ?? undefined,
          to: s.to,
          status: ["completed", "partially_refunded"],
          mode: "live",
          currency,
        });
        expect(list.total, at).toBe(s.donations);
        expect(list.totalsByCurrency, at).toEqual(
          s.donations
            ? [{ currency, count: s.donations, countedCount: s.donations, countedMinor: s.raisedMinor }]
            : [],
        );
      }
    }
    // The seed puts gifts in every one of these periods: the comparisons above were not of zeros.
    expect(
      brute(rows, tz, "USD", {
        from: addDays(today, -13),
        to: addDays(today, -7),
        prevFrom: addDays(today, -20),
      }).donations,
    ).toBeGreaterThan(0);
    // The last 7 days as a custom period are the 7-day preset's numbers.
    const preset = await caller.dashboard.summary({ days: 7 });
    const same = await caller.dashboard.summary({ from: addDays(today, -6), to: today });
    expect({ ...same, days: 7 }).toEqual(preset);
  }, 120_000);

  it("refuses periods that cannot be with a 400 and a clear message, in the organization's own days", async () => {
    // UTC+14: the organization's today is often the UTC tomorrow, and it is its today that counts.
    const tz = "Pacific/Kiritimati";
    const org = await makeOrg({ timeZone: tz });
    const owner = await member(org, "owner");
    const { caller } = owner;
    const today = localDay(Date.now(), tz);
    expect(await codeOf(caller.dashboard.summary({ from: today, to: today }))).toBe("OK");
    expect(await codeOf(caller.dashboard.summary({ from: addDays(today, -3659), to: today }))).toBe("OK");
    const bad: [Record<string, string>, RegExp][] = [
      [{ from: today, to: addDays(today, -1) }, /ends before it starts/],
      [{ from: today, to: addDays(today, 1) }, /cannot end after today \(\d{4}-\d{2}-\d{2}\)/],
      [{ from: addDays(today, -3660), to: today }, /at most 3660 days/],
      [{ from: today }, /last day/],
      [{ to: today }, /first day/],
      [{ from: "2026-02-30", to: today }, /not a day of the calendar/],
      [{ from: "yesterday", to: today }, /YYYY-MM-DD/],
    ];
    for (const [input, message] of bad) {
      const at = JSON.stringify(input);
      expect(await codeOf(caller.dashboard.summary(input)), at).toBe("BAD_REQUEST");
      const res = await trpcHttp(owner.jar, "dashboard.summary", input, { method: "GET" });
      expect(res.status, at).toBe(400);
      const err = (await trpcError(res)) as { code: string; message: string; fieldErrors?: object } | null;
      expect(err?.code, at).toBe("BAD_REQUEST");
      // SPEC's shape: the message, and the field it is about (zod's fieldErrors or the refusal's).
      expect([err?.message, ...Object.values(err?.fieldErrors ?? {}).flat()].join(" "), at).toMatch(message);
    }
    const admin = await platformAdmin(org);
    expect(await codeOf(admin.caller.dashboard.platform({ from: today, to: addDays(today, -1) }))).toBe(
      "BAD_REQUEST",
    );
    expect(
      await codeOf(admin.caller.dashboard.platform({ from: addDays(today, -30), to: addDays(today, -1) })),
    ).toBe("OK");
  });
});

describe("retention and lapsed donors", () => {
  it("counts donors of the previous 12 local months who gave again (retained) or not (lapsed)", async () => {
    const tz = "Pacific/Auckland";
    const org = await makeOrg({ timeZone: tz });
    const { caller } = await member(org, "owner");
    const today = localDay(Date.now(), tz);
    const priorFrom = addDays(today, -729);
    const recentFrom = addDays(today, -364);
    const at = (day: string, offsetMs: number) => startOfLocalDay(day, tz) + offsetMs;
    const donor = async (name: string) => {
      const d = await caller.donors.create({
        data: { firstName: name, lastName: "Ret", email: `${name}-${org}@example.test` },
      });
      if (!d.created) throw new Error("expected a new donor");
      return d.id;
    };
    const gift = (donorId: string, donatedAt: number, extra: Record<string, unknown> = {}) =>
      caller.donations.create({
        donorId,
        campaignId: null,
        amountMinor: 2_000,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt,
        ...extra,
      });
    const retained = await donor("retained");
    await gift(retained, at(addDays(today, -500), 0));
    await gift(retained, at(addDays(today, -30), 0), { currency: "EUR" }); // any currency retains
    const lapsed = await donor("lapsed");
    const lapsedGift = await gift(lapsed, at(addDays(today, -600), 0));
    // On the first second of the previous window: in. One second before it: out.
    const edge = await donor("edge");
    await gift(edge, at(priorFrom, 0));
    const tooOld = await donor("tooold");
    await gift(tooOld, at(priorFrom, -1000));
    // Gave in the previous window and again one second before the recent window began: lapsed.
    const almost = await donor("almost");
    await gift(almost, at(addDays(today, -400), 0));
    await gift(almost, at(recentFrom, -1000));
    // Came back on the first second of the recent window: retained.
    const back = await donor("back");
    await gift(back, at(addDays(today, -400), 0));
    await gift(back, at(recentFrom, 0));
    // Refunded, test and trashed gifts do not make anyone a donor of the previous window.
    const refunded = await donor("refunded");
    const r = await gift(refunded, at(addDays(today, -500), 0));
    await caller.donations.updateStatus({ id: r.id, status: "refunded", reason: "gone" });
    const tester = await donor("tester");
    await gift(tester, at(addDays(today, -500), 0), { mode: "test" });
    const trashed = await donor("trashed");
    const t = await gift(trashed, at(addDays(today, -500), 0));
    await caller.donations.delete({ id: t.id });
    const fresh = await donor("fresh");
    await gift(fresh, at(addDays(today, -10), 0));

    const rows = await donationsOf(org);
    const day = (d: RawDonation) => localDay(d.donated_at, tz);
    const gaveIn = (id: string, from: string, to: string) =>
      rows.some((d) => d.donor_id === id && isCounted(d) && day(d) >= from && day(d) <= to);
    const base = [...new Set(rows.map((d) => d.donor_id as string))].filter((id) =>
      gaveIn(id, priorFrom, addDays(today, -365)),
    );
    const again = base.filter((id) => gaveIn(id, recentFrom, today));
    expect(new Set(base)).toEqual(new Set([retained, lapsed, edge, almost, back]));
    expect(new Set(again)).toEqual(new Set([retained, back]));

    const ret = await caller.dashboard.retention();
    expect(ret).toMatchObject({
      base: 5,
      retained: 2,
      lapsed: 3,
      rate: 2 / 5,
      priorFrom,
      priorTo: addDays(today, -365),
      recentFrom,
    });
    // The tiles' lists: donations of lapsed (retained) donors in the previous window.
    const lapsedList = await caller.donations.list({
      segment: "lapsed",
      from: ret.priorFrom,
      to: ret.priorTo,
      status: ["completed", "partially_refunded"],
      mode: "live",
      pageSize: 100,
    });
    expect(new Set(lapsedList.rows.map((x) => x.donorId))).toEqual(new Set([lapsed, edge, almost]));
    expect(lapsedList.rows.map((x) => x.id)).toContain(lapsedGift.id);
    const retainedList = await caller.donations.list({
      segment: "retained",
      from: ret.priorFrom,
      to: ret.priorTo,
      status: ["completed", "partially_refunded"],
      mode: "live",
    });
    expect(new Set(retainedList.rows.map((x) => x.donorId))).toEqual(new Set([retained, back]));
  });
});

describe("analytics tenancy", () => {
  it("keeps each organization's numbers to itself; only platform admins see every organization", async () => {
    const a = await makeOrg();
    const b = await makeOrg();
    const ownerA = await member(a, "owner");
    const ownerB = await member(b, "owner");
    await ownerA.caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 7_700,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 1000,
    });
    await ownerB.caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 1_100,
      currency: "EUR",
      paymentMethod: "cash",
      donatedAt: Date.now() - 1000,
    });
    expect((await ownerA.caller.dashboard.summary({ days: 7 })).raisedMinor).toBe(7_700);
    expect((await ownerB.caller.dashboard.summary({ days: 7 })).raisedMinor).toBe(0);
    expect((await ownerB.caller.dashboard.summary({ days: 7, currency: "EUR" })).raisedMinor).toBe(1_100);
    expect(await codeOf(ownerA.caller.dashboard.platform({ days: 7 }))).toBe("FORBIDDEN");
    const admin = await platformAdmin(a);
    const p = await admin.caller.dashboard.platform({ days: 7 });
    expect(p.organizations.find((o) => o.id === a)).toMatchObject({
      currency: "USD",
      raised: 7_700,
      count: 1,
    });
    expect(p.organizations.find((o) => o.id === b)).toMatchObject({
      currency: "EUR",
      raised: 1_100,
      count: 1,
    });
    // Totals stay per currency: the EUR gift is never inside the USD total.
    const usd = p.totals.find((t) => t.currency === "USD");
    const eur = p.totals.find((t) => t.currency === "EUR");
    expect(usd && eur).toBeTruthy();
    expect(p.totals.map((t) => t.currency).sort()).toEqual(
      [...new Set(p.totals.map((t) => t.currency))].sort(),
    );
    const outsider = await member(await makeOrg(), "viewer");
    expect(await codeOf(outsider.caller.dashboard.platform({ days: 7 }))).toBe("FORBIDDEN");
  });
});
