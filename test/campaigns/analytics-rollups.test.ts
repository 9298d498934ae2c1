/**
 * Issue 27, decision 037: a large campaign's own analytics rollups. The property test
 * (test/donations/rollups.property.test.ts) keeps two built campaigns through random single
 * changes; here the other writers — an import's batches and their undo, a donor merge — keep them
 * equal to a build from the gifts, the cron builds exactly the campaigns past the threshold, a
 * time-zone change sends analytics back to the gifts until the cron rebuilds, and distinct donors
 * above SKETCH_K are estimated within the stated bound.
 */
import { DISTINCT_ERROR_BOUND, SKETCH_K } from "@core/analytics";
import { describe, expect, it } from "vitest";
import { analyticsRows } from "../../worker/campaigns/analytics/queries";
import { buildCampaignRollups, buildLargeCampaigns } from "../../worker/ledger/campaign-rollups";
import { expectCampaignRollupsRebuildable } from "../donations/brute";
import { expectRecount } from "../donations/recount";
import { makeOrg, member, numberedDonors } from "../fixtures";
import { testEnv } from "../helpers";
import { csv, runImport } from "../imports/run";

type Caller = Awaited<ReturnType<typeof member>>["caller"];

const FIELDS = {
  Email: "email",
  "First Name": "firstName",
  Amount: "amount",
  Currency: "currency",
  Date: "donatedAt",
  Status: "status",
  "Amount Refunded": "refundedAmount",
  Campaign: "campaign",
  Frequency: "frequency",
} as const;

/** `n` gifts of nine people over two campaigns, refunds and pending ones among them. */
function giftsFile(n: number) {
  const rows: (string | number)[][] = [Object.keys(FIELDS)];
  for (let k = 0; k < n; k++)
    rows.push([
      `giver${k % 9}@example.test`,
      `Giver ${k % 9}`,
      `${20 + (k % 40)}.00`,
      "USD",
      `2025-${String(1 + (k % 12)).padStart(2, "0")}-${String(1 + (k % 28)).padStart(2, "0")}T2${k % 4}:30:00Z`,
      k % 13 === 0 ? "Refunded" : k % 17 === 0 ? "Pending" : "Completed",
      k % 11 === 0 && k % 13 !== 0 && k % 17 !== 0 ? "5.00" : "",
      k % 2 ? "Winter Appeal" : "Roof Repair",
      k % 5 === 0 ? "Monthly" : "One-time",
    ]);
  return csv(rows);
}

/** The rollups' answer equals the exact one in every figure they answer exactly. */
async function expectFastIsExact(caller: Caller, id: string, label: string) {
  for (const period of [{ days: 0 }, { days: 30 }, { days: 7, from: "2025-02-11", to: "2025-06-20" }]) {
    const fast = await caller.campaigns.analytics({ id, ...period });
    const exact = await caller.campaigns.analytics({ id, ...period, exact: true });
    const at = `${label} ${JSON.stringify(period)}`;
    const { medianMinor: fm, estimated: fe, topDonors: ft, ...fastRest } = fast;
    const { medianMinor: em, estimated: _e, topDonors: et, ...exactRest } = exact;
    expect(fastRest, at).toEqual(exactRest);
    expect(fe.median, `${at}: from the rollups`).toBe(fast.donations > 0);
    expect(Math.abs(fm - em), at).toBeLessThanOrEqual(em * fast.errorBounds.median + 1);
    if (!fe.topDonors) expect(ft, at).toEqual(et);
  }
}

const stateOf = async (campaignId: string) =>
  (
    await testEnv.DB.prepare("SELECT time_zone FROM campaign_rollup_state WHERE campaign_id = ?")
      .bind(campaignId)
      .first<{ time_zone: string }>()
  )?.time_zone ?? null;

describe("a large campaign's own rollups (decision 037)", () => {
  it("are kept by an import's batches and by every step of its undo", async () => {
    const org = await makeOrg({ timeZone: "America/Los_Angeles" });
    const { caller } = await member(org, "owner");
    const campaigns = [
      await caller.campaigns.create({ title: "Roof Repair", currency: "USD", goalType: "none" }),
      await caller.campaigns.create({ title: "Winter Appeal", currency: "USD", goalType: "none" }),
    ];
    // One gift before, so the build has something to count.
    await caller.donations.create({
      donorId: null,
      campaignId: campaigns[0]?.id as string,
      amountMinor: 4_200,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.UTC(2025, 4, 3, 7),
    });
    for (const c of campaigns)
      expect(await buildCampaignRollups(testEnv.DB, org, c.id, "America/Los_Angeles")).toBe(true);
    const { import: done, rejected } = await runImport(caller, "donations", giftsFile(1_100), {
      fields: FIELDS,
      options: { timeZone: "America/Los_Angeles" },
    });
    expect(rejected).toEqual([]);
    expect(done.counts).toMatchObject({ giftsCreated: 1_100 });
    // expectRecount compares every built campaign's rollups with a build from its gifts.
    await expectRecount(org, "America/Los_Angeles", caller, "after the import");
    for (const c of campaigns) {
      expect(await stateOf(c.id)).toBe("America/Los_Angeles");
      await expectFastIsExact(caller, c.id, `after the import, ${c.title}`);
    }
    await caller.imports.rollback({ id: done.id });
    for (let step = 1; ; step++) {
      const res = await caller.imports.rollback({ id: done.id });
      await expectRecount(org, "America/Los_Angeles", caller, `undo step ${step}`);
      if (res.done) break;
    }
    await expectFastIsExact(caller, campaigns[0]?.id as string, "after the undo");
    expect((await caller.campaigns.analytics({ id: campaigns[0]?.id as string, days: 0 })).donations).toBe(1);
  }, 120_000);

  it("move with a merged donor: the source's rows become the target's", async () => {
    const org = await makeOrg({ timeZone: "Europe/Berlin" });
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({ title: "Coats", currency: "USD", goalType: "none" });
    expect(await buildCampaignRollups(testEnv.DB, org, c.id, "Europe/Berlin")).toBe(true);
    const ids: string[] = [];
    for (const name of ["Ana", "Anna"]) {
      const d = await caller.donors.create({ data: { firstName: name, lastName: "Merge" } });
      ids.push(d.id as string);
      for (const day of [3, 17])
        await caller.donations.create({
          donorId: d.id as string,
          campaignId: c.id,
          amountMinor: 2_500 * day,
          currency: "USD",
          paymentMethod: "cash",
          donatedAt: Date.UTC(2025, 8, day, 12),
        });
    }
    expect((await caller.campaigns.analytics({ id: c.id, days: 0 })).uniqueDonors).toBe(2);
    await caller.donors.merge({ sourceId: ids[0] as string, targetId: ids[1] as string, dryRun: false });
    await expectRecount(org, "Europe/Berlin", caller, "after the merge");
    const after = await caller.campaigns.analytics({ id: c.id, days: 0 });
    expect(after.uniqueDonors).toBe(1);
    expect(after.topDonors.map((d) => [d.id, d.total, d.gifts])).toEqual([
      [ids[1], 2 * (2_500 * 3 + 2_500 * 17), 4],
    ]);
    expect(after.estimated.median).toBe(true);
  });

  it("are built by the cron past the threshold only; a zone change sends analytics to the gifts until it rebuilds", async () => {
    const org = await makeOrg({ timeZone: "UTC" });
    const { caller } = await member(org, "owner");
    const big = await caller.campaigns.create({ title: "Big", currency: "USD", goalType: "none" });
    const small = await caller.campaigns.create({ title: "Small", currency: "USD", goalType: "none" });
    const give = (campaignId: string, at: number, amountMinor = 1_000) =>
      caller.donations.create({
        donorId: null,
        campaignId,
        amountMinor,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: at,
      });
    // Around midnight UTC, so Honolulu's days differ.
    for (const h of [-3, -1, 1, 3, 5]) await give(big.id, Date.UTC(2025, 9, 10, h), 1_000 + h * 100);
    await give(small.id, Date.UTC(2025, 9, 10, 2));
    // The cron's selection, with a threshold of 3 counted gifts instead of the configured 10 000.
    const here = (id: string) => id === org;
    expect(await buildLargeCampaigns(testEnv.DB, here, 3, { limit: 50 })).toEqual([big.id]);
    expect([await stateOf(big.id), await stateOf(small.id)]).toEqual(["UTC", null]);
    expect(await buildLargeCampaigns(testEnv.DB, here, 3, { limit: 50 })).toEqual([]);
    expect((await caller.campaigns.analytics({ id: big.id, days: 0 })).estimated.median).toBe(true);
    expect((await caller.campaigns.analytics({ id: small.id, days: 0 })).estimated.median).toBe(false);

    await caller.organization.update({
      name: "Zone Org",
      type: "charity",
      defaultCurrency: "USD",
      timeZone: "Pacific/Honolulu",
      fiscalYearStartMonth: 1,
    });
    // Built in a zone the organization left: analytics reads the gifts, on Honolulu's days.
    const meanwhile = await caller.campaigns.analytics({
      id: big.id,
      days: 7,
      from: "2025-10-05",
      to: "2025-10-15",
    });
    expect(meanwhile.estimated.median).toBe(false);
    expect(meanwhile.series.find((p) => p.count > 0)?.day).toBe("2025-10-09");
    // A gift written in the new zone drops the stale state, so it can never count again.
    await give(big.id, Date.UTC(2025, 9, 11, 4));
    expect(await stateOf(big.id)).toBe(null);
    expect(await buildLargeCampaigns(testEnv.DB, here, 3, { limit: 50 })).toEqual([big.id]);
    expect(await stateOf(big.id)).toBe("Pacific/Honolulu");
    await expectCampaignRollupsRebuildable(org, big.id, "Pacific/Honolulu", "rebuilt in Honolulu");
    await expectFastIsExact(caller, big.id, "in Honolulu");
  });

  it("a built campaign's answer reads none of its gifts; the exact one reads them all", async () => {
    const org = await makeOrg({ timeZone: "UTC" });
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({ title: "Fund", currency: "USD", goalType: "none" });
    await testEnv.DB.prepare(
      `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 400)
       INSERT INTO donation (id, organization_id, campaign_id, number, amount_minor, currency, status, source, mode, donated_at, created_at, updated_at)
       SELECT ?1 || '-' || n, ?1, ?2, n, 1000 + n, 'USD', 'completed', 'manual', 'live', ?3 + n * 3600000, 0, 0 FROM s`,
    )
      .bind(org, c.id, Date.UTC(2025, 0, 1))
      .run();
    expect(await buildCampaignRollups(testEnv.DB, org, c.id, "UTC")).toBe(true);
    // D1's own count of the rows each statement read, per batch.
    let reads: number[] = [];
    const counting = {
      prepare: (sql: string) => testEnv.DB.prepare(sql),
      batch: async (list: D1PreparedStatement[]) => {
        const res = await testEnv.DB.batch(list);
        reads = res.map((r) => r.meta.rows_read);
        return res;
      },
    };
    const period = {
      fromDay: "0000-01-01",
      toDay: "2026-12-31",
      fromMs: Number.MIN_SAFE_INTEGER,
      untilMs: Date.UTC(2027, 0, 1),
      prevMs: 0,
      prevUntilMs: 0,
      prevDays: null,
    };
    const campaign = { orgId: org, id: c.id, currency: "USD" };
    const fast = await analyticsRows(counting as never, campaign, period, false);
    // The batch: built, series, recent, items, then the five statements over the gifts.
    const gifts = reads.slice(4, 9);
    expect(fast.cur.n).toBe(400);
    // Only the gate itself: the state row and the organization, a few times (400 gifts otherwise).
    expect(Math.max(...gifts), JSON.stringify(reads)).toBeLessThan(20);
    const exact = await analyticsRows(counting as never, campaign, period, true);
    expect(exact.cur.n).toBe(400);
    expect(reads[4], JSON.stringify(reads)).toBeGreaterThanOrEqual(400);
  });

  it(`count distinct donors exactly below ${SKETCH_K} and within the stated bound above`, async () => {
    const org = await makeOrg({ timeZone: "UTC" });
    const { caller } = await member(org, "owner");
    const c = await caller.campaigns.create({ title: "Many", currency: "USD", goalType: "none" });
    // 3 000 donors, each giving once or twice over six months (deterministic sketch values: numberedDonors).
    await testEnv.DB.batch([
      numberedDonors(org, 3_000),
      testEnv.DB.prepare(
        `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3000),
                        k(k) AS (SELECT 1 UNION ALL SELECT 2)
         INSERT INTO donation (id, organization_id, campaign_id, number, donor_id, amount_minor, currency, status, source, mode, donated_at, created_at, updated_at)
         SELECT ?1 || '-' || n || '-' || k, ?1, ?2, n * 10 + k, ?1 || '-' || n, 1000 + n % 997, 'USD', 'completed', 'manual', 'live',
                ?3 + ((n * 7 + k * 13) % 180) * 86400000, 0, 0
           FROM s CROSS JOIN k WHERE k = 1 OR n % 3 = 0`,
      ).bind(org, c.id, Date.UTC(2025, 0, 1, 12)),
    ]);
    expect(await buildCampaignRollups(testEnv.DB, org, c.id, "UTC")).toBe(true);
    for (const [from, to] of [
      ["2025-01-01", "2025-06-30"],
      ["2025-02-01", "2025-02-28"],
      ["2025-03-05", "2025-03-09"],
    ] as const) {
      const fast = await caller.campaigns.analytics({ id: c.id, days: 7, from, to });
      const exact = await caller.campaigns.analytics({ id: c.id, days: 7, from, to, exact: true });
      const at = `${from}..${to}: ${exact.uniqueDonors} donors, estimated ${fast.uniqueDonors}`;
      expect(fast.donations, at).toBe(exact.donations);
      expect(fast.raisedMinor, at).toBe(exact.raisedMinor);
      if (exact.uniqueDonors < SKETCH_K) {
        expect(fast.uniqueDonors, at).toBe(exact.uniqueDonors);
        expect(fast.estimated.uniqueDonors, at).toBe(false);
      } else {
        expect(fast.estimated.uniqueDonors, at).toBe(true);
        expect(Math.abs(fast.uniqueDonors - exact.uniqueDonors) / exact.uniqueDonors, at).toBeLessThanOrEqual(
          DISTINCT_ERROR_BOUND,
        );
      }
    }
  }, 60_000);
});
