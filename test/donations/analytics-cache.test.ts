import { addDays, localDay, startOfLocalDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { testEnv } from "../helpers";

/** The organization's analytics version as the trigger keeps it (0 before its first change). */
async function analyticsVersion(db: D1Database, organizationId: string) {
  const row = await db
    .prepare("SELECT version FROM analytics_version WHERE organization_id = ?")
    .bind(organizationId)
    .first<{ version: number }>();
  return row?.version ?? 0;
}

describe("dashboard answers cached under the organization's analytics version", () => {
  it("serves a repeat from KV and never a stale answer after an audited change", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const gift = (amountMinor: number) =>
      caller.donations.create({
        donorId: null,
        campaignId: null,
        amountMinor,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now() - 60_000,
      } as never);
    await gift(1_000);
    const v1 = await analyticsVersion(testEnv.DB, org);
    expect(v1).toBeGreaterThan(0);
    const first = await caller.dashboard.summary({ days: 30, currency: "USD" });
    expect(first.raisedMinor).toBe(1_000);
    const keys = (await testEnv.KV.list({ prefix: `analytics:${org}:${v1}:summary:` })).keys;
    expect(keys).toHaveLength(1);

    // A change written behind the API's back (no audit row) is not seen: the answer is the cached one.
    await testEnv.DB.prepare("UPDATE donation SET amount_minor = 999999 WHERE organization_id = ?")
      .bind(org)
      .run();
    expect((await caller.dashboard.summary({ days: 30, currency: "USD" })).raisedMinor).toBe(1_000);
    await testEnv.DB.prepare("UPDATE donation SET amount_minor = 1000 WHERE organization_id = ?")
      .bind(org)
      .run();

    // Every audited change bumps the version in the same batch: the next read recomputes.
    await gift(2_500);
    expect(await analyticsVersion(testEnv.DB, org)).toBeGreaterThan(v1);
    const second = await caller.dashboard.summary({ days: 30, currency: "USD" });
    expect(second.raisedMinor).toBe(3_500);
    expect(second.donations).toBe(2);
    // Other periods and currencies are other keys.
    expect((await caller.dashboard.summary({ days: 7, currency: "USD" })).raisedMinor).toBe(3_500);
    expect((await caller.dashboard.summary({ days: 30, currency: "EUR" })).raisedMinor).toBe(0);
    const r1 = await caller.dashboard.retention();
    expect(r1.base).toBe(0);
    // Changes that move no figure (a note) leave the version alone; a donor edit moves it.
    const donor = await caller.donors.create({
      data: { firstName: "Vera", lastName: "Lind", email: `vera-${org}@example.test` },
    });
    if (!donor.created) throw new Error("expected a new donor");
    const afterDonor = await analyticsVersion(testEnv.DB, org);
    await caller.donors.notes.create({ donorId: donor.id, body: "Met at the gala" });
    expect(await analyticsVersion(testEnv.DB, org)).toBe(afterDonor);
    await caller.donors.update({
      id: donor.id,
      data: { firstName: "Verena", lastName: "Lind", email: `vera-${org}@example.test` },
    });
    expect(await analyticsVersion(testEnv.DB, org)).toBe(afterDonor + 1);
    // Another organization's changes do not touch this one's version.
    const other = await makeOrg();
    const v = await analyticsVersion(testEnv.DB, org);
    const { caller: otherCaller } = await member(other, "owner");
    await otherCaller.donations.create({
      donorId: null,
      campaignId: null,
      amountMinor: 700,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
    } as never);
    expect(await analyticsVersion(testEnv.DB, org)).toBe(v);
  });

  it("keeps each custom period under its own key: never another period's or a preset's numbers", async () => {
    const tz = "Pacific/Auckland";
    const org = await makeOrg({ timeZone: tz });
    const { caller } = await member(org, "owner");
    const today = localDay(Date.now(), tz);
    const at = (daysBack: number) => startOfLocalDay(addDays(today, -daysBack), tz) + 3_600_000;
    for (const [amountMinor, back] of [
      [1_000, 0],
      [2_000, 10],
      [4_000, 20],
    ] as const)
      await caller.donations.create({
        donorId: null,
        campaignId: null,
        amountMinor,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Math.min(at(back), Date.now() - 1000),
      });
    const version = await analyticsVersion(testEnv.DB, org);
    // Each read fills its own entry first, then every one is read again from KV.
    const asks = [
      [{ days: 30 }, 7_000],
      [{ from: addDays(today, -3), to: today }, 1_000],
      [{ from: addDays(today, -12), to: addDays(today, -8) }, 2_000],
      [{ from: addDays(today, -12), to: addDays(today, -9) }, 2_000],
      [{ from: addDays(today, -25), to: addDays(today, -15) }, 4_000],
      [{ from: addDays(today, -25), to: today }, 7_000],
    ] as const;
    for (const [input, raised] of asks)
      expect((await caller.dashboard.summary(input)).raisedMinor, JSON.stringify(input)).toBe(raised);
    const keys = (await testEnv.KV.list({ prefix: `analytics:${org}:${version}:summary:` })).keys.map(
      (k) => k.name,
    );
    expect(keys).toHaveLength(asks.length);
    expect(keys).toContain(
      // "fast": from the rollups; "exact" answers (every gift recounted) have keys of their own.
      `analytics:${org}:${version}:summary:${today}:${addDays(today, -3)}..${today}:USD:fast`,
    );
    for (const [input, raised] of asks)
      expect((await caller.dashboard.summary(input)).raisedMinor, JSON.stringify(input)).toBe(raised);
  });
});
