/**
 * Rollups built in stretches (decisions 038, 043): a time-zone change or the cron builds org_daily,
 * donation_daily_totals, analytics_facet and donor_period in the organization's zone — and a large
 * campaign's own rollups (decision 037) — a stretch of whole local days per batch, often ending
 * inside a month, and every change made between two batches (single changes, an import's batches
 * and their undo) keeps the days already built, and the built days of a month under way. Checked
 * against a brute-force recount and a build in one go, in zones whose midnights move.
 */
import { allowedDonationTargets, type DonationStatus } from "@core/status";
import { addDays, localDay, startOfLocalDay } from "@core/time";
import { describe, expect, it } from "vitest";
import type { DonationRow } from "../../worker/db/rows";
import { buildCampaignRollupsInStretches } from "../../worker/ledger/campaign-rollups";
import { facts } from "../../worker/ledger/donation-change";
import { buildDailyRollups, rebuildDailyRollups, rollupStatements } from "../../worker/ledger/rollups";
import { changeTokenGuard } from "../../worker/lib/guard";
import { runScheduled } from "../../worker/scheduled";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { csv, runImport } from "../imports/run";
import {
  bruteDaily,
  bruteDailyTotals,
  dailyStateOf,
  donationsOf,
  exactFieldsOf,
  expectAnalyticsRebuildable,
  expectCampaignRollupsRebuildable,
  prng,
  type RawDonation,
  storedAnalytics,
  storedDaily,
  storedDailyTotals,
} from "./brute";

type Build = { time_zone: string; built_month: string; built_until: number };
const buildOf = (org: string) =>
  testEnv.DB.prepare(
    "SELECT time_zone, built_month, built_until FROM donation_daily_build WHERE organization_id = ?",
  )
    .bind(org)
    .first<Build>();

const campaignBuildOf = (campaign: string) =>
  testEnv.DB.prepare(
    "SELECT time_zone, built_month, built_until FROM campaign_rollup_build WHERE campaign_id = ?",
  )
    .bind(campaign)
    .first<Build>();

/**
 * A change written as a request that read the organization's zone as `timeZone` writes it: the
 * gift's amount up by 1.00, its deltas computed in that zone and guarded by the write's token.
 */
async function writeInZone(row: RawDonation, timeZone: string, token: string) {
  await testEnv.DB.batch([
    testEnv.DB.prepare(
      "UPDATE donation SET amount_minor = amount_minor + 100, change_token = ? WHERE id = ?",
    ).bind(token, row.id),
    ...rollupStatements(
      testEnv.DB,
      facts(row as unknown as DonationRow),
      facts({ ...row, amount_minor: row.amount_minor + 100 } as unknown as DonationRow),
      timeZone,
      changeTokenGuard(row.id, token),
    ),
  ]);
}

/** Moves the organization to `timeZone` behind the API's back: its rollups are then rebuilt by hand. */
const moveZone = (org: string, timeZone: string) =>
  testEnv.DB.prepare("UPDATE organization SET time_zone = ? WHERE id = ?").bind(timeZone, org).run();

/** Keys of the built days only: `built` is the first day not built. */
const builtPart = <T>(m: Record<string, T> | Map<string, T>, built: string, dayAt: (k: string) => string) =>
  Object.fromEntries([...(m instanceof Map ? m : Object.entries(m))].filter(([k]) => dayAt(k) < built));

/** The first local day a build has not built (its progress is that day's start). */
const builtDayOf = (build: Build) => localDay(build.built_until, build.time_zone);

async function setUp(timeZone: string, seed: number) {
  const org = await makeOrg({ timeZone });
  const owner = await member(org, "owner");
  const r = prng(seed);
  const campaigns = [
    (await owner.caller.campaigns.create({ title: "Coats", currency: "USD", goalType: "none" })).id,
    (await owner.caller.campaigns.create({ title: "Schals", currency: "EUR", goalType: "none" })).id,
  ];
  const donors: string[] = [];
  for (const name of ["Ana", "Ben", "Cai"]) {
    const d = await owner.caller.donors.create({
      data: { firstName: name, lastName: "Build", email: `${name.toLowerCase()}-${org}@example.test` },
    });
    if (d.created) donors.push(d.id);
  }
  const today = localDay(Date.now(), timeZone);
  // Within minutes of a local midnight, often the first or last of a month: a gift counted in the
  // wrong zone, or in the wrong stretch, lands on the wrong day or month.
  const when = () => {
    const day = r.chance(0.5)
      ? `${addDays(today, -r.int(1, 420)).slice(0, 7)}-01`
      : addDays(today, -r.int(1, 420));
    return startOfLocalDay(day, timeZone) + r.pick([-1, 1]) * r.int(1, 300) * 1000;
  };
  const create = (status: "completed" | "pending" = r.chance(0.85) ? "completed" : "pending") => {
    const i = r.int(0, 1);
    return owner.caller.donations.create({
      donorId: r.chance(0.9) ? r.pick(donors) : null,
      campaignId: r.chance(0.8) ? (campaigns[i] as string) : null,
      amountMinor: r.int(100, 50_000),
      currency: i ? "EUR" : "USD",
      paymentMethod: r.pick(["cash", "check"] as const),
      frequency: r.chance(0.3) ? "monthly" : "one_time",
      status,
      donatedAt: when(),
    });
  };
  /** One random change through the API: a new gift, a status change (refunds too), an edit, trash, restore. */
  const change = async () => {
    const rows = await donationsOf(org);
    const live = rows.filter((d) => d.trashed_at === null);
    const roll = r.next();
    if (roll < 0.35 || !live.length) return create();
    const d = r.pick(live);
    if (roll < 0.6) {
      const targets = allowedDonationTargets(d.status as DonationStatus, d.source);
      const to = targets.length ? r.pick(targets) : null;
      const left = d.amount_minor - d.refunded_minor;
      if (!to || (to === "partially_refunded" && left < 2)) return;
      const refundAmountMinor = to === "partially_refunded" ? r.int(1, left - 1) : undefined;
      expect(
        await codeOf(
          owner.caller.donations.updateStatus({ id: d.id, status: to, reason: "build", refundAmountMinor }),
        ),
      ).toBe("OK");
    } else if (roll < 0.75) {
      const same = d.currency === "EUR" ? campaigns[1] : campaigns[0];
      await owner.caller.donations.update({
        id: d.id,
        data: {
          campaignId: r.chance(0.7) ? (same as string) : null,
          amountMinor: Math.max(d.refunded_minor, r.int(100, 60_000)),
        },
      });
    } else if (roll < 0.9) await owner.caller.donations.delete({ id: d.id });
    else {
      const trashed = rows.filter((x) => x.trashed_at !== null);
      if (trashed.length) await owner.caller.donations.restore({ id: r.pick(trashed).id });
    }
  };
  for (let i = 0; i < 40; i++) await create();
  return { org, owner, r, change, create, campaigns };
}

/** Everything equals a recount in `timeZone`, the rollups are built there, and no build is left. */
async function expectBuilt(org: string, timeZone: string, ctx: string) {
  const rows = await donationsOf(org);
  expect(await dailyStateOf(org), ctx).toBe(timeZone);
  expect(await buildOf(org), ctx).toBeNull();
  expect(Object.fromEntries(await storedDaily(org)), ctx).toEqual(
    Object.fromEntries(bruteDaily(rows, timeZone)),
  );
  expect(await storedDailyTotals(org), ctx).toEqual(bruteDailyTotals(rows, timeZone));
  // analytics_facet and donor_period as kept equal a rebuild in one go.
  await expectAnalyticsRebuildable(org, timeZone, ctx);
}

// Asuncion: clocks jumped at local midnight; Lord Howe: a half-hour switch; Kathmandu: +05:45.
for (const [seed, from, to] of [
  [38, "America/Asuncion", "Australia/Lord_Howe"],
  [380, "Asia/Kathmandu", "America/Los_Angeles"],
] as const) {
  describe(`a rebuild in stretches of days (${from} → ${to})`, () => {
    it("ends equal to a recount with random changes between every two of its batches, the built days exact all along", async () => {
      const { org, change } = await setUp(from, seed);
      await moveZone(org, to);
      // Three gifts a batch: a stretch of whole days, most often ending inside a month, whose
      // month rows then hold the built days only until the next stretch adds the rest.
      let batches = 0;
      let insideMonth = 0;
      await buildDailyRollups(testEnv.DB, org, to, { maxBatches: 0, batchGifts: 3 });
      expect(await dailyStateOf(org)).toBeUndefined();
      expect(await buildOf(org)).toMatchObject({ time_zone: to, built_month: "" });
      for (;;) {
        const done = await buildDailyRollups(testEnv.DB, org, to, { maxBatches: 1, batchGifts: 3 });
        batches++;
        if (done) break;
        const build = (await buildOf(org)) as Build;
        const builtDay = builtDayOf(build);
        // Progress is the start of a local day; the row's month names that day's, for people.
        expect(build.built_until).toBe(startOfLocalDay(builtDay, to));
        expect(build.built_month).toBe(builtDay.slice(0, 7));
        if (!builtDay.endsWith("-01")) insideMonth++;
        for (let i = 0; i < 3; i++) await change();
        const rows = await donationsOf(org);
        const ctx = `seed ${seed}, batch ${batches}, built to ${builtDay}`;
        // The built days are exact; org_daily beyond them is the old zone's, moved by every change.
        expect(
          builtPart(await storedDailyTotals(org), builtDay, (k) => k),
          ctx,
        ).toEqual(builtPart(bruteDailyTotals(rows, to), builtDay, (k) => k));
        const dayOf = (k: string) => k.split("|")[1] as string;
        expect(builtPart(await storedDaily(org), builtDay, dayOf), ctx).toEqual(
          builtPart(bruteDaily(rows, to), builtDay, dayOf),
        );
        expect(batches).toBeLessThan(200);
      }
      // Fifteen months and more in stretches of a few gifts: many batches, not one, and months
      // built over two stretches or more (their month rows added to while changes came in).
      expect(batches).toBeGreaterThan(5);
      expect(insideMonth).toBeGreaterThan(2);
      await expectBuilt(org, to, `seed ${seed}`);
      // The dashboard reads the rollups again, and they agree with its exact answer.
      const owner = await member(org, "owner");
      for (const days of [0, 30, 365]) {
        const fast = await owner.caller.dashboard.summary({ days, currency: "USD" });
        const exact = await owner.caller.dashboard.summary({ days, currency: "USD", exact: true });
        expect(exactFieldsOf(fast)).toEqual(exactFieldsOf(exact));
        expect(fast.estimated.median).toBe(fast.donations > 0);
      }
    }, 120_000);
  });
}

describe("a large campaign's own rollups built in stretches", () => {
  it("end equal to a build in one go with random changes between every two of its batches, and answer as its gifts do", async () => {
    const { org, owner, change, campaigns } = await setUp("America/Asuncion", 39);
    const coats = campaigns[0] as string;
    let batches = 0;
    while (
      !(await buildCampaignRollupsInStretches(testEnv.DB, org, coats, "America/Asuncion", {
        maxBatches: 1,
        batchGifts: 2,
      }))
    ) {
      batches++;
      const build = (await campaignBuildOf(coats)) as Build;
      expect(build.time_zone).toBe("America/Asuncion");
      for (let i = 0; i < 3; i++) await change();
      expect(batches).toBeLessThan(200);
    }
    expect(batches).toBeGreaterThan(5);
    expect(await campaignBuildOf(coats)).toBeNull();
    await expectCampaignRollupsRebuildable(org, coats, "America/Asuncion", "the campaign built in stretches");
    for (const days of [0, 30, 365]) {
      const fast = await owner.caller.campaigns.analytics({ id: coats, days });
      const exact = await owner.caller.campaigns.analytics({ id: coats, days, exact: true });
      const { medianMinor: fm, estimated: fe, topDonors: ft, ...fastRest } = fast;
      const { medianMinor: em, estimated: ee, topDonors: et, ...exactRest } = exact;
      expect(fastRest).toEqual(exactRest);
      // From its rollups (the only path that marks the median ≈), within the median's bound.
      expect(fe.median).toBe(fast.donations > 0);
      expect(Math.abs(fm - em)).toBeLessThanOrEqual(em * fast.errorBounds.median + 1);
      expect(Object.values(ee).some(Boolean)).toBe(false);
      if (!fe.topDonors) expect(ft.map((d) => d.total).sort()).toEqual(et.map((d) => d.total).sort());
    }
  }, 120_000);

  it("is dropped by a change computed in another zone, and the cron builds it again", async () => {
    const { org, campaigns } = await setUp("Europe/Paris", 40);
    const coats = campaigns[0] as string;
    await buildCampaignRollupsInStretches(testEnv.DB, org, coats, "Europe/Paris", {
      maxBatches: 2,
      batchGifts: 3,
    });
    expect(await campaignBuildOf(coats)).toMatchObject({ time_zone: "Europe/Paris" });
    const row = (await donationsOf(org)).find((d) => d.campaign_id === coats);
    if (!row) throw new Error("expected a gift in the campaign");
    await writeInZone(row, "UTC", "zone-switch-campaign");
    expect(await campaignBuildOf(coats)).toBeNull();
    // The cron builds campaigns past campaignRollupsFrom gifts: this one when the threshold is low.
    const { buildLargeCampaigns } = await import("../../worker/ledger/campaign-rollups");
    expect(await buildLargeCampaigns(testEnv.DB, (o) => o === org, 3, { limit: 50 })).toContain(coats);
    await expectCampaignRollupsRebuildable(org, coats, "Europe/Paris", "after the cron");
  }, 120_000);
});

describe("a rebuild in stretches", () => {
  it("keeps an import's batches and their undo made between its own batches", async () => {
    const { org, owner, campaigns } = await setUp("Europe/London", 7);
    await moveZone(org, "Pacific/Chatham");
    await buildDailyRollups(testEnv.DB, org, "Pacific/Chatham", { maxBatches: 2, batchGifts: 4 });
    // The campaign the file names has rollups of its own, half built too.
    const coats = campaigns[0] as string;
    await buildCampaignRollupsInStretches(testEnv.DB, org, coats, "Pacific/Chatham", {
      maxBatches: 2,
      batchGifts: 3,
    });
    expect(await campaignBuildOf(coats)).toMatchObject({ time_zone: "Pacific/Chatham" });
    const build = (await buildOf(org)) as Build;
    expect(build.built_month > "").toBe(true);
    // Gifts on both sides of the built days' end, in batches of five rows.
    const rows: (string | number)[][] = [["Email", "Amount", "Currency", "Date", "Campaign"]];
    for (let k = 0; k < 30; k++) {
      const at = build.built_until + (k % 2 ? 1 : -1) * (k + 1) * 3 * 86_400_000 + (k % 3) * 60_000;
      rows.push([
        `imp${k % 4}-${org}@example.test`,
        `$${10 + k}.00`,
        "USD",
        new Date(at).toISOString(),
        "Imported",
      ]);
    }
    const { import: imp } = await runImport(owner.caller, "donations", csv(rows), {
      fields: {
        Email: "email",
        Amount: "amount",
        Currency: "currency",
        Date: "donatedAt",
        Campaign: "campaign",
      },
      options: { timeZone: "UTC" },
      batchRows: 5,
    });
    expect(imp.status).toBe("completed");
    await buildDailyRollups(testEnv.DB, org, "Pacific/Chatham", { maxBatches: 1, batchGifts: 4 });
    const mid = await donationsOf(org);
    const built = builtDayOf((await buildOf(org)) as Build);
    expect(builtPart(await storedDailyTotals(org), built, (k) => k)).toEqual(
      builtPart(bruteDailyTotals(mid, "Pacific/Chatham"), built, (k) => k),
    );
    for (let step = 0; step < 20; step++) {
      const undo = await owner.caller.imports.rollback({ id: imp.id });
      if (undo.done) break;
    }
    expect(await buildDailyRollups(testEnv.DB, org, "Pacific/Chatham", { batchGifts: 4 })).toBe(true);
    await expectBuilt(org, "Pacific/Chatham", "after the import's undo");
    expect(
      await buildCampaignRollupsInStretches(testEnv.DB, org, coats, "Pacific/Chatham", { batchGifts: 3 }),
    ).toBe(true);
    expect(await campaignBuildOf(coats)).toBeNull();
    await expectCampaignRollupsRebuildable(
      org,
      coats,
      "Pacific/Chatham",
      "the campaign after the import's undo",
    );
  }, 120_000);

  it("starts over when a change computed its days in another zone, and the cron finishes what a run left", async () => {
    const { org } = await setUp("UTC", 11);
    await moveZone(org, "Asia/Tokyo");
    await buildDailyRollups(testEnv.DB, org, "Asia/Tokyo", { maxBatches: 2, batchGifts: 4 });
    expect((await buildOf(org))?.built_month).not.toBe("");
    // A request that read the old zone writes its change: the months built in Tokyo did not take its
    // deltas, so the build is dropped, not trusted.
    const [row] = await donationsOf(org);
    if (!row) throw new Error("expected a gift");
    await writeInZone(row, "UTC", "zone-switch-build");
    expect(await buildOf(org)).toBeNull();
    // The cron builds it again from the start, to the end within its run.
    await runScheduled("*/15 * * * *", testEnv, new Date());
    await expectBuilt(org, "Asia/Tokyo", "after the cron");
  }, 120_000);

  it("lands once when two runs build the same organization at the same time", async () => {
    const { org } = await setUp("America/Sao_Paulo", 12);
    await moveZone(org, "Europe/Berlin");
    const runs = await Promise.all(
      [0, 1].map(() => buildDailyRollups(testEnv.DB, org, "Europe/Berlin", { batchGifts: 3 })),
    );
    // A run whose batch lost the race to the other's fails its guard and reads the build again.
    if (!runs.every(Boolean)) expect(await buildDailyRollups(testEnv.DB, org, "Europe/Berlin")).toBe(true);
    await expectBuilt(org, "Europe/Berlin", "after two runs at once");
  }, 120_000);

  it("is whole within the request of a time-zone change for an organization of a few gifts", async () => {
    const { org, owner } = await setUp("Europe/Paris", 13);
    await owner.caller.organization.update({
      name: "Zone Org",
      type: "charity",
      defaultCurrency: "USD",
      timeZone: "Pacific/Honolulu",
      fiscalYearStartMonth: 1,
    });
    await expectBuilt(org, "Pacific/Honolulu", "right after the change");
    // A rebuild in one go finds nothing to correct.
    const kept = await storedAnalytics(org);
    expect(await rebuildDailyRollups(testEnv.DB, org, "Pacific/Honolulu")).toBe(true);
    expect(await storedAnalytics(org)).toEqual(kept);
  }, 120_000);
});
