import { describe, expect, it } from "vitest";
import { rebuildDailyRollups } from "../../worker/ledger/rollups";
import { runScheduled } from "../../worker/scheduled";
import {
  bruteDaily,
  bruteDailyTotals,
  bruteTotals,
  dailyStateOf,
  donationsOf,
  storedDaily,
  storedDailyTotals,
  storedTotals,
} from "../donations/brute";
import { expectRecount } from "../donations/recount";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";

describe("abandoning stale pending gifts", () => {
  it("abandons pending gifts older than 72 hours, only those, each with an audit row and a timeline entry", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const gift = (status: "pending" | "completed") =>
      caller.donations.create({
        donorId: null,
        campaignId: null,
        amountMinor: 500,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now() - 1000,
        status,
      });
    const stale = await gift("pending");
    const fresh = await gift("pending");
    const done = await gift("completed");
    const now = Date.now();
    const age = (id: string, hours: number) =>
      testEnv.DB.prepare("UPDATE donation SET created_at = ? WHERE id = ?")
        .bind(now - hours * 3600_000, id)
        .run();
    await age(stale.id, 72.1);
    await age(fresh.id, 71.9);
    await age(done.id, 500);
    await runScheduled("*/15 * * * *", testEnv, new Date(now));
    expect((await caller.donations.byId({ id: stale.id })).status).toBe("abandoned");
    expect((await caller.donations.byId({ id: fresh.id })).status).toBe("pending");
    expect((await caller.donations.byId({ id: done.id })).status).toBe("completed");
    await runScheduled("*/15 * * * *", testEnv, new Date(now)); // a repeated run changes nothing
    // donation_totals moved the gift from pending to abandoned (once), and the list filter agrees.
    expect(await storedTotals(org)).toEqual(bruteTotals(await donationsOf(org)));
    // …and donation_daily_totals moved its local day's row the same way.
    expect(await storedDailyTotals(org)).toEqual(bruteDailyTotals(await donationsOf(org), "UTC"));
    const today = new Date(Date.now() - 1000).toISOString().slice(0, 10);
    expect((await caller.donations.list({ status: ["abandoned"], from: today, to: today })).total).toBe(1);
    expect((await caller.donations.list({ status: ["pending"], from: today, to: today })).total).toBe(1);
    expect((await caller.donations.list({ status: ["abandoned"] })).total).toBe(1);
    expect((await caller.donations.list({ status: ["pending"] })).total).toBe(1);
    const audit = await testEnv.DB.prepare(
      "SELECT entity_id, reason FROM audit_event WHERE organization_id = ? AND action = 'donation.abandon'",
    )
      .bind(org)
      .all();
    expect(audit.results).toEqual([{ entity_id: stale.id, reason: "Pending for more than 72 hours" }]);
    const timeline = (await caller.donations.byId({ id: stale.id })).timeline;
    expect(timeline.at(-1)).toMatchObject({ kind: "status", status: "abandoned", actor: "System" });
    expect(timeline[0]).toMatchObject({ kind: "recorded", status: "pending" });
  });

  it("abandons a gift of an organization whose daily rows are in another zone by dropping their state, and the cron rebuilds them", async () => {
    const org = await makeOrg({ timeZone: "Asia/Kolkata" });
    const { caller } = await member(org, "owner");
    const g = await caller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 700,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now() - 5 * 3600_000,
      status: "pending",
    });
    const now = Date.now();
    await testEnv.DB.prepare("UPDATE donation SET created_at = ? WHERE id = ?")
      .bind(now - 80 * 3600_000, g.id)
      .run();
    // As if the zone changed and the rebuild has not run yet.
    await testEnv.DB.prepare("UPDATE donation_daily_state SET time_zone = 'UTC' WHERE organization_id = ?")
      .bind(org)
      .run();
    await runScheduled("*/15 * * * *", testEnv, new Date(now));
    expect((await caller.donations.byId({ id: g.id })).status).toBe("abandoned");
    // The same run's rebuild job may already have rebuilt it in the organization's zone.
    const state = await dailyStateOf(org);
    expect([undefined, "Asia/Kolkata"]).toContain(state);
    for (let i = 0; i < 10 && (await dailyStateOf(org)) !== "Asia/Kolkata"; i++)
      await runScheduled("*/15 * * * *", testEnv, new Date(now));
    expect(await dailyStateOf(org)).toBe("Asia/Kolkata");
    expect(await storedDailyTotals(org)).toEqual(bruteDailyTotals(await donationsOf(org), "Asia/Kolkata"));
  });
});

describe("changing the organization's time zone", () => {
  it("recounts every rollup in the new zone in SQL, gifts around both zones' daylight-saving switches included", async () => {
    const org = await makeOrg({ timeZone: "Pacific/Auckland" });
    const { caller } = await member(org, "owner");
    const campaigns = [
      await caller.campaigns.create({ title: "Coats", currency: "USD", goalType: "none" }),
      await caller.campaigns.create({ title: "Schals", currency: "EUR", goalType: "none" }),
    ];
    const donor = await caller.donors.create({ data: { firstName: "Ana", lastName: "Rollup" } });
    // Auckland's and Asunción's switches in 2025 and 2026, ± a few hours, and spread days.
    const switches = [
      Date.UTC(2025, 3, 5, 14),
      Date.UTC(2025, 8, 27, 14),
      Date.UTC(2025, 9, 5, 4),
      Date.UTC(2026, 2, 22, 3),
      Date.UTC(2026, 3, 4, 14),
    ];
    let i = 0;
    for (const at of switches)
      for (const delta of [-5 * 3600_000, -30 * 60_000, 30 * 60_000, 5 * 3600_000, 3 * 86_400_000]) {
        const campaign = campaigns[i % 3];
        i += 1;
        await caller.donations.create({
          donorId: i % 2 ? (donor.id as string) : null,
          campaignId: campaign?.id ?? null,
          amountMinor: 1_000 + i * 37,
          currency: (campaign?.currency ?? "USD") as "USD" | "EUR",
          paymentMethod: i % 4 ? "cash" : "check",
          status: i % 5 ? "completed" : "pending",
          donatedAt: at + delta,
        });
      }
    await caller.organization.update({
      name: "Zone Org",
      type: "charity",
      defaultCurrency: "USD",
      timeZone: "America/Asuncion",
      fiscalYearStartMonth: 1,
    });
    await expectRecount(org, "America/Asuncion", caller, "after the switch to Asunción");
  });

  it("rebuilds the per-day rollups in the new zone; a write still using the old zone drops the daily state", async () => {
    const org = await makeOrg({ timeZone: "UTC" });
    const { caller } = await member(org, "owner");
    const midnight = Date.UTC(2026, 0, 10);
    for (const delta of [-2 * 3600_000, -60_000, 60_000, 9 * 3600_000, 11 * 3600_000])
      await caller.donations.create({
        donorId: null,
        campaignId: null,
        amountMinor: 1_000,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: midnight + delta,
      });
    await caller.organization.update({
      name: "Zone Org",
      type: "charity",
      defaultCurrency: "USD",
      timeZone: "Pacific/Honolulu",
      fiscalYearStartMonth: 1,
    });
    const rows = await donationsOf(org);
    expect(await dailyStateOf(org)).toBe("Pacific/Honolulu");
    expect(await storedDailyTotals(org)).toEqual(bruteDailyTotals(rows, "Pacific/Honolulu"));
    expect(Object.fromEntries(await storedDaily(org))).toEqual(
      Object.fromEntries(bruteDaily(rows, "Pacific/Honolulu")),
    );
    // 2026-01-09 in Honolulu (UTC-10) is 01-09 10:00Z … 01-10 10:00Z: four of the five gifts.
    expect((await caller.donations.list({ from: "2026-01-09", to: "2026-01-09" })).total).toBe(4);
    // A request that loaded the old zone writes after the switch: its day would be wrong, so the
    // state goes and the list scans until the cron rebuilds.
    const { rollupStatements } = await import("../../worker/ledger/rollups");
    type DonationFacts = import("../../worker/ledger/rollups").DonationFacts;
    const { changeTokenGuard } = await import("../../worker/lib/guard");
    // A gift whose UTC day is not its Honolulu day, so the old zone's delta lands elsewhere.
    const dayIn = (at: number, offset: number) => new Date(at + offset).toISOString().slice(0, 10);
    const row = rows.find(
      (d) => dayIn(d.donated_at, 0) !== dayIn(d.donated_at, -10 * 3600_000),
    ) as (typeof rows)[number];
    // No id: the deltas alone, none of the stored row's campaign or donor reads.
    const facts: DonationFacts = {
      id: "",
      organizationId: org,
      campaignId: null,
      donorId: null,
      status: "completed",
      mode: "live",
      trashedAt: null,
      amountMinor: 1_000,
      refundedMinor: 0,
      currency: "USD",
      donatedAt: row.donated_at,
      planId: null,
      frequency: "one_time",
      paymentMethod: "card",
    };
    // Deltas are guarded by the write's change token (decision 020).
    await testEnv.DB.prepare(
      "UPDATE donation SET amount_minor = 2000, change_token = 'zone-switch' WHERE id = ?",
    )
      .bind(row.id)
      .run();
    await testEnv.DB.batch(
      rollupStatements(
        testEnv.DB,
        facts,
        { ...facts, amountMinor: 2_000 },
        "UTC",
        changeTokenGuard(row.id, "zone-switch"),
      ),
    );
    expect(await dailyStateOf(org)).toBeUndefined();
    const after = await donationsOf(org);
    const day = new Date(row.donated_at - 10 * 3600_000).toISOString().slice(0, 10);
    const got = await caller.donations.list({ from: day, to: day });
    expect(got.totalsByCurrency[0]?.countedMinor).toBe(
      after
        .filter((d) => new Date(d.donated_at - 10 * 3600_000).toISOString().slice(0, 10) === day)
        .reduce((t, d) => t + d.amount_minor, 0),
    );
    // That write's org_daily delta landed on its UTC day; the cron's rebuild (worker/scheduled.ts)
    // recounts org_daily with the daily rows, in the organization's zone.
    expect(Object.fromEntries(await storedDaily(org))).not.toEqual(
      Object.fromEntries(bruteDaily(after, "Pacific/Honolulu")),
    );
    expect(await rebuildDailyRollups(testEnv.DB, org, "Pacific/Honolulu")).toBe(true);
    expect(await dailyStateOf(org)).toBe("Pacific/Honolulu");
    expect(Object.fromEntries(await storedDaily(org))).toEqual(
      Object.fromEntries(bruteDaily(after, "Pacific/Honolulu")),
    );
    expect(await storedDailyTotals(org)).toEqual(bruteDailyTotals(after, "Pacific/Honolulu"));
  });
});
