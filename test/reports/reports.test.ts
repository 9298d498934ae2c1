/**
 * The fundraising reports (issue 27) against a brute-force recount (./brute.ts): random donors and
 * gifts over seven years in two currencies, with refunds (full and partial), disputes, pending and
 * failed gifts, test-mode and trashed gifts that must not count, gifts a second either side of
 * every calendar and fiscal New Year in the organization's zone, an organization in
 * Pacific/Auckland (New Year's Eve in UTC is already the next year there) with its fiscal year
 * starting in July, and one in America/Los_Angeles starting in April. Every figure of every
 * report, under every filter (currency, year basis, campaign, tier, tag, and the gifts' own
 * payment method, frequency and source), is recounted.
 */
import { localDay, startOfLocalDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { donationsOf, prng } from "../donations/brute";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";
import {
  bruteCampaign,
  bruteLapsed,
  brutePyramid,
  bruteYearly,
  bumpVersion,
  giftsIn,
  type Scope,
  yearOf,
} from "./brute";

type Caller = Awaited<ReturnType<typeof member>>["caller"];

const STATUSES = [
  "completed",
  "completed",
  "completed",
  "completed",
  "completed",
  "partially_refunded",
  "refunded",
  "pending",
  "failed",
  "disputed",
] as const;

/** The i-th donor's consents, in the order of the donor table's columns (email, phone, mail). */
const consentOf = (i: number) => [i % 2, i % 5 === 0 ? 1 : 0, i % 3 === 1 ? 1 : 0];
/** The same as a lapsed row carries them (the list's CSV hands them on with the e-mail). */
const consents = (i: number) => {
  const [email, phone, mail] = consentOf(i);
  return { emailOptIn: email === 1, phoneOptIn: phone === 1, mailOptIn: mail === 1 };
};

/**
 * An organization with tiers (one ladder on lifetime giving, and a rolling-12-month tier that
 * overlaps two of its rungs), two tags, four campaigns (three in USD, one in EUR), 48 donors and
 * about 700 gifts over the last seven years; the edges of every year are given a gift each side.
 */
async function seedWorld(tz: string, fiscalMonth: number, seed: number) {
  const org = await makeOrg({ timeZone: tz });
  await testEnv.DB.prepare("UPDATE organization SET fiscal_year_start_month = ? WHERE id = ?")
    .bind(fiscalMonth, org)
    .run();
  const owner = await member(org, "owner");
  const c = owner.caller;
  const tiers = [
    await c.donors.tiers.create({ name: "General", minMinor: 0, maxMinor: 50_000 }),
    await c.donors.tiers.create({ name: "Mid", minMinor: 50_000, maxMinor: 500_000 }),
    await c.donors.tiers.create({ name: "Major", minMinor: 500_000, maxMinor: null }),
    await c.donors.tiers.create({
      name: "Sustainer",
      basis: "rolling_12m",
      minMinor: 30_000,
      maxMinor: 90_000,
    }),
  ].map((t) => t.id);
  const tags = [
    (await c.donors.tags.create({ name: "Board" })).id,
    (await c.donors.tags.create({ name: "Gala" })).id,
  ];
  const campaigns = [
    (await c.campaigns.create({ title: "Winter Shelter", currency: "USD", goalType: "none" })).id,
    (await c.campaigns.create({ title: "Summer Camp", currency: "USD", goalType: "none" })).id,
    (await c.campaigns.create({ title: "Library Fund", currency: "USD", goalType: "none" })).id,
  ];
  const euroCampaign = (
    await c.campaigns.create({ title: "Fonds Europe", currency: "EUR", goalType: "none" })
  ).id;
  const r = prng(seed);
  const now = Date.now();
  const donors: string[] = [];
  const stmts: D1PreparedStatement[] = [];
  for (let i = 0; i < 48; i++) {
    const id = `rd-${org}-${String(i).padStart(2, "0")}`;
    donors.push(id);
    stmts.push(
      testEnv.DB.prepare(
        "INSERT INTO donor (id, organization_id, first_name, last_name, email, tier_id, created_at, updated_at, email_opt_in, phone_opt_in, mail_opt_in) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ).bind(
        id,
        org,
        `Donor${i}`,
        i % 3 ? "Reyes" : "Okafor",
        `d${i}-${seed}@example.test`,
        r.pick(tiers),
        now,
        now,
        ...consentOf(i),
      ),
    );
  }
  await testEnv.DB.batch(stmts);
  await c.donors.tags.assign({
    donorIds: donors.filter((_, i) => i % 3 === 0),
    tagIds: [tags[0] as string],
    mode: "add",
  });
  await c.donors.tags.assign({
    donorIds: donors.filter((_, i) => i % 4 === 1),
    tagIds: [tags[1] as string],
    mode: "add",
  });

  // Instants: uniform over the last seven years, plus one second either side of every calendar
  // and fiscal New Year of the zone, and 23:30 UTC on every New Year's Eve.
  const thisYear = Number(localDay(now, tz).slice(0, 4));
  const instants: number[] = [];
  const from = startOfLocalDay(`${thisYear - 6}-01-01`, tz);
  for (let i = 0; i < 560; i++) instants.push(from + Math.floor(r.next() * (now - 60_000 - from)));
  for (let y = thisYear - 6; y <= thisYear; y++) {
    for (const month of [1, fiscalMonth]) {
      const edge = startOfLocalDay(`${y}-${String(month).padStart(2, "0")}-01`, tz);
      for (const t of [edge - 1000, edge, edge + 1000]) if (t < now - 60_000) instants.push(t);
    }
    const eve = Date.UTC(y - 1, 11, 31, 23, 30);
    if (eve > from && eve < now) instants.push(eve);
  }
  const batch: D1PreparedStatement[] = [];
  instants.forEach((at, i) => {
    const status = r.pick(STATUSES);
    const amount = r.chance(0.04) ? r.int(400_000, 900_000) : r.int(100, 60_000);
    const refunded =
      status === "refunded" ? amount : status === "partially_refunded" ? r.int(1, amount - 1) : 0;
    const euro = r.chance(0.25);
    // The gifts' own filters (method, frequency, source) each keep a part of every report.
    const method = r.pick(["card", "card", "check", "paypal", "bank_transfer"] as const);
    const frequency = r.pick(["one_time", "one_time", "monthly", "quarterly", "annually"] as const);
    const source = r.pick(["import", "online", "online", "manual", "webhook"] as const);
    batch.push(
      testEnv.DB.prepare(
        `INSERT INTO donation (id, organization_id, number, donor_id, campaign_id, amount_minor, refunded_minor, currency, status, source, mode, donated_at, created_at, updated_at, trashed_at, payment_method, frequency)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        `rg-${org}-${String(i).padStart(4, "0")}`,
        org,
        i + 1,
        r.chance(0.93) ? r.pick(donors) : null,
        euro ? (r.chance(0.6) ? euroCampaign : null) : r.chance(0.8) ? r.pick(campaigns) : null,
        amount,
        refunded,
        euro ? "EUR" : "USD",
        status,
        source,
        r.chance(0.08) ? "test" : "live",
        at,
        now,
        now,
        r.chance(0.05) ? now : null,
        method,
        frequency,
      ),
    );
  });
  for (let i = 0; i < batch.length; i += 100) await testEnv.DB.batch(batch.slice(i, i + 100));
  await bumpVersion(org);
  return { org, owner, tiers, tags, campaigns, euroCampaign, donors, rows: await donationsOf(org) };
}

/** The donor ids a tier or tag filter keeps (as stored: donor.tier_id, donor_tag_assignment). */
async function donorsWith(org: string, f: { tierId?: string; tagId?: string }) {
  if (!f.tierId && !f.tagId) return undefined;
  const sql = f.tierId
    ? "SELECT id FROM donor WHERE organization_id = ? AND tier_id = ?"
    : "SELECT a.donor_id AS id FROM donor_tag_assignment a JOIN donor d ON d.id = a.donor_id WHERE d.organization_id = ? AND a.tag_id = ?";
  const { results } = await testEnv.DB.prepare(sql)
    .bind(org, f.tierId ?? f.tagId)
    .all<{ id: string }>();
  return new Set(results.map((x) => x.id));
}

async function checkEverything(
  caller: Caller,
  world: Awaited<ReturnType<typeof seedWorld>>,
  tz: string,
  fiscalMonth: number,
) {
  const today = localDay(Date.now(), tz);
  // What the recount met, so a vacuous pass (empty lists, no gifts in a filter) fails.
  const seen = { gifts: 0, lybunt: 0, sybunt: 0, recaptured: 0, pyramid: 0, campaignDays: 0 };
  const variants = [
    {},
    { campaignId: world.campaigns[0] },
    { tierId: world.tiers[1] },
    { tagId: world.tags[0] },
    { paymentMethod: "check" },
    { frequency: "recurring", source: "online" },
  ] as {
    campaignId?: string;
    tierId?: string;
    tagId?: string;
    paymentMethod?: string;
    frequency?: "recurring";
    source?: "online";
  }[];
  for (const currency of ["USD", "EUR"]) {
    for (const basis of ["calendar", "fiscal"] as const) {
      const startMonth = basis === "fiscal" ? fiscalMonth : 1;
      const current = yearOf(Date.now(), { timeZone: tz, startMonth });
      for (const v of variants) {
        const at = `${tz} ${currency} ${basis} ${JSON.stringify(v)}`;
        const scope: Scope = {
          timeZone: tz,
          startMonth,
          currency,
          campaignId: v.campaignId,
          paymentMethod: v.paymentMethod,
          frequency: v.frequency,
          source: v.source,
          donors: await donorsWith(world.org, v),
        };
        const gifts = giftsIn(world.rows, scope);
        const firstYear = Math.min(...gifts.map((d) => yearOf(d.donated_at, scope)));
        seen.gifts += gifts.length;

        // Giving by year, retention and recapture, cohorts: the default range and a chosen one.
        const fromYear = current - 6;
        const y = await caller.reports.yearly({ basis, currency, ...v, fromYear, toYear: current });
        const b = bruteYearly(world.rows, scope, fromYear, current);
        expect(y.currency, at).toBe(currency);
        expect(y.firstYear, at).toBe(gifts.length ? firstYear : null);
        expect(
          y.giving.map(({ label: _l, ...g }) => g),
          at,
        ).toEqual(b.giving);
        expect(
          y.retention.map(({ label: _l, ...g }) => g),
          at,
        ).toEqual(b.retention);
        seen.recaptured += b.retention.reduce((t, r) => t + r.recaptured, 0);
        expect(
          y.cohorts.map((c) => ({ firstYear: c.firstYear, donors: c.donors, cells: c.cells })),
          at,
        ).toEqual(b.cohorts);
        // The default years start where the filter bar's pickers do: at the currency's first
        // gift, whatever the other filters (the earlier years of a later-starting set are zeros).
        const d = await caller.reports.yearly({ basis, currency, ...v });
        const inCurrency = giftsIn(world.rows, { timeZone: tz, startMonth, currency });
        const currencyFirst = Math.min(...inCurrency.map((g) => yearOf(g.donated_at, scope)));
        expect([d.fromYear, d.toYear], at).toEqual([
          Math.max(current - 4, inCurrency.length ? currencyFirst : current),
          current,
        ]);
        expect(d.giving.map((r) => r.year)[0], at).toBe(d.fromYear);

        // LYBUNT and SYBUNT: every page of the list, and the export's keyset pages.
        for (const kind of ["lybunt", "sybunt"] as const) {
          const want = bruteLapsed(world.rows, scope, kind, current).map((w) => ({
            ...w,
            ...consents(world.donors.indexOf(w.donorId)),
          }));
          const got: unknown[] = [];
          let page = 1;
          let total = -1;
          let totalMinor = -1;
          for (;;) {
            const l = await caller.reports.lapsed({ basis, currency, ...v, kind, page, pageSize: 10 });
            if (page === 1) {
              total = l.total;
              totalMinor = l.totalMinor;
              expect(l.lastYear.year, at).toBe(current - 1);
            }
            got.push(...l.rows.map(({ name: _n, email: _e, lastYearLabel: _y, ...r }) => r));
            if (l.rows.length < 10) break;
            page += 1;
          }
          expect(got, `${at} ${kind}`).toEqual(want);
          seen[kind] += want.length;
          expect(total, `${at} ${kind}`).toBe(want.length);
          expect(totalMinor, `${at} ${kind}`).toBe(want.reduce((t, r) => t + r.lastYearMinor, 0));
          const exported: unknown[] = [];
          let after: string | undefined;
          do {
            const p = await caller.reports.lapsedExportPage({ basis, currency, ...v, kind, after, limit: 7 });
            if (!after) expect(p.total, `${at} ${kind} export`).toBe(want.length);
            exported.push(...p.rows.map(({ name: _n, email: _e, lastYearLabel: _y, ...r }) => r));
            after = p.next;
          } while (after);
          expect(exported, `${at} ${kind} export`).toEqual(want);
          // The list's search box: donors whose name holds "okafor" (every third donor).
          const okafor = new Set(world.donors.filter((_, i) => i % 3 === 0));
          const searched = await caller.reports.lapsed({
            basis,
            currency,
            ...v,
            kind,
            q: "okaFOR",
            pageSize: 100,
          });
          expect(
            searched.rows.map((r) => r.donorId),
            `${at} ${kind} search`,
          ).toEqual(want.filter((r) => okafor.has(r.donorId)).map((r) => r.donorId));
          expect(searched.total).toBe(searched.rows.length);
        }

        // The pyramid of last year and of this year so far.
        if (!v.tierId)
          for (const year of [current - 1, current]) {
            const p = await caller.reports.pyramid({ basis, currency, ...v, year });
            const want = brutePyramid(world.rows, scope, year, await tierRanges(world.org));
            for (const row of p.rows)
              expect(
                { donors: row.donors, amountMinor: row.amountMinor },
                `${at} pyramid ${year} ${row.name}`,
              ).toEqual(want.get(row.tierId) ?? { donors: 0, amountMinor: 0 });
            expect(p.donors, at).toBe([...want.values()].reduce((t, c) => t + c.donors, 0));
            seen.pyramid += p.rows.filter((x) => x.donors > 0).length;
          }
      }
    }
  }

  // Campaigns side by side: all time, and over a period; filters on donors apply too.
  const usd: Scope = { timeZone: tz, startMonth: 1, currency: "USD" };
  for (const period of [
    {},
    { from: `${Number(today.slice(0, 4)) - 3}-02-11`, to: `${Number(today.slice(0, 4)) - 1}-12-31` },
  ] as {
    from?: string;
    to?: string;
  }[]) {
    for (const f of [
      {},
      { tagId: world.tags[1] },
      { paymentMethod: "check", frequency: "one_time" as const, source: "online" as const },
    ]) {
      const at = `${tz} campaigns ${JSON.stringify(period)} ${JSON.stringify(f)}`;
      const res = await caller.reports.campaigns({ campaignIds: world.campaigns, ...f, ...period });
      const scope = { ...usd, ...f, donors: await donorsWith(world.org, f) };
      expect(res.currency).toBe("USD");
      for (const row of res.campaigns) {
        const want = bruteCampaign(world.rows, scope, row.id, period.from, period.to);
        const { days, ...stats } = want;
        expect(
          {
            raisedMinor: row.raisedMinor,
            gifts: row.gifts,
            donors: row.donors,
            averageMinor: row.averageMinor,
            medianMinor: row.medianMinor,
            firstGiftAt: row.firstGiftAt,
            lastGiftAt: row.lastGiftAt,
          },
          at,
        ).toEqual(stats);
        expect(row.days, at).toEqual(days);
        seen.campaignDays += days.length;
      }
    }
  }
  for (const [k, n] of Object.entries(seen)) expect(n, `${k} met by the recount`).toBeGreaterThan(9);
  return seen;
}

async function tierRanges(org: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT id, min_minor AS minMinor, max_minor AS maxMinor FROM donor_tier WHERE organization_id = ?",
  )
    .bind(org)
    .all<{ id: string; minMinor: number; maxMinor: number | null }>();
  return results;
}

describe("fundraising reports against a brute-force recount", () => {
  for (const [tz, fiscalMonth, seed] of [
    ["Pacific/Auckland", 7, 2701],
    ["America/Los_Angeles", 4, 2702],
  ] as const) {
    it(`match gift by gift in ${tz} (fiscal year from month ${fiscalMonth}), per currency, basis and filter`, async () => {
      const world = await seedWorld(tz, fiscalMonth, seed);
      await checkEverything(world.owner.caller, world, tz, fiscalMonth);
    });
  }

  it("put a gift at 23:30 UTC on New Year's Eve into the next year in Auckland, and fiscal years at their first local midnight", async () => {
    const tz = "Pacific/Auckland";
    const org = await makeOrg({ timeZone: tz });
    await testEnv.DB.prepare("UPDATE organization SET fiscal_year_start_month = 7 WHERE id = ?")
      .bind(org)
      .run();
    const { caller } = await member(org, "viewer");
    const y = Number(localDay(Date.now(), tz).slice(0, 4)) - 1;
    const gifts: [number, number][] = [
      [Date.UTC(y - 1, 11, 31, 10, 59, 59), 100], // 23:59:59 on Dec 31 in Auckland (NZDT, +13)
      [Date.UTC(y - 1, 11, 31, 11, 0, 0), 200], // 00:00 on Jan 1: the next year already
      [Date.UTC(y - 1, 11, 31, 23, 30), 400], // New Year's Eve in UTC, noon in Auckland
      [Date.UTC(y, 5, 30, 11, 59, 59), 800], // 23:59:59 on Jun 30 (NZST, +12)
      [Date.UTC(y, 5, 30, 12, 0, 0), 1600], // 00:00 on Jul 1: the next fiscal year
    ];
    const now = Date.now();
    await testEnv.DB.batch(
      gifts.map(([at, amount], i) =>
        testEnv.DB.prepare(
          "INSERT INTO donation (id, organization_id, number, amount_minor, currency, status, donated_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'USD', 'completed', ?, ?, ?)",
        ).bind(`nye-${org}-${i}`, org, i + 1, amount, at, now, now),
      ),
    );
    await bumpVersion(org);
    const cal = await caller.reports.yearly({ basis: "calendar", fromYear: y - 1, toYear: y });
    expect(cal.giving.map((g) => [g.label, g.raisedMinor])).toEqual([
      [String(y - 1), 100],
      [String(y), 200 + 400 + 800 + 1600],
    ]);
    const fis = await caller.reports.yearly({ basis: "fiscal", fromYear: y - 1, toYear: y });
    const fy = (n: number) => `FY ${n}/${String((n + 1) % 100).padStart(2, "0")}`;
    expect(fis.giving.map((g) => [g.label, g.raisedMinor])).toEqual([
      [fy(y - 1), 100 + 200 + 400 + 800],
      [fy(y), 1600],
    ]);
  });
});
