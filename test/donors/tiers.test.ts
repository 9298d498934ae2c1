import { describe, expect, it } from "vitest";
import { runScheduled } from "../../worker/scheduled";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { type Caller, gift, newDonor, refusal } from "./helpers";

async function ladder(caller: Caller) {
  const general = await caller.donors.tiers.create({ name: "General", minMinor: 0, maxMinor: 50_000 });
  const mid = await caller.donors.tiers.create({ name: "Mid", minMinor: 50_000, maxMinor: 500_000 });
  const major = await caller.donors.tiers.create({ name: "Major", minMinor: 500_000, maxMinor: null });
  return { general: general.id, mid: mid.id, major: major.id };
}

describe("donor tiers", () => {
  it("puts a donor exactly at the minimum in the tier and exactly at the maximum in the next one", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const t = await ladder(caller);
    const below = await newDonor(caller, { lastName: "Below" });
    const atMin = await newDonor(caller, { lastName: "AtMin" });
    const atMax = await newDonor(caller, { lastName: "AtMax" });
    await gift(caller, below, 49_999);
    await gift(caller, atMin, 50_000);
    await gift(caller, atMax, 250_000);
    await gift(caller, atMax, 250_000);
    const tierOf = async (id: string) => (await caller.donors.byId({ id })).tier?.id;
    expect([await tierOf(below), await tierOf(atMin), await tierOf(atMax)]).toEqual([
      t.general,
      t.mid,
      t.major,
    ]);
    const dist = await caller.donors.tiers.list();
    expect(dist.tiers.map((x) => [x.name, x.donors])).toEqual([
      ["General", 1],
      ["Mid", 1],
      ["Major", 1],
    ]);
  });

  it("refuses overlapping ranges (touching is fine), on create, on update and when two race", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const t = await ladder(caller);
    for (const range of [
      { minMinor: 49_999, maxMinor: 50_001 },
      { minMinor: 0, maxMinor: 1 },
      { minMinor: 1_000_000, maxMinor: null },
      { minMinor: 10_000, maxMinor: 20_000 },
    ]) {
      const e = await refusal(caller.donors.tiers.create({ name: "Overlap", ...range }));
      expect(e.code).toBe("CONFLICT");
      expect(e.message).toMatch(/overlaps the tier "(General|Mid|Major)"/);
    }
    expect(await codeOf(caller.donors.tiers.create({ name: "Bad", minMinor: 500, maxMinor: 500 }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(caller.donors.tiers.create({ name: "Bad", minMinor: -1, maxMinor: 5 }))).toBe(
      "BAD_REQUEST",
    );
    // Another basis is another ladder.
    expect(
      await codeOf(
        caller.donors.tiers.create({ name: "Recent", basis: "rolling_12m", minMinor: 0, maxMinor: null }),
      ),
    ).toBe("OK");
    expect(
      await codeOf(
        caller.donors.tiers.update({ id: t.mid, name: "Mid", minMinor: 40_000, maxMinor: 500_000 }),
      ),
    ).toBe("CONFLICT");
    expect(
      await codeOf(
        caller.donors.tiers.update({ id: t.mid, name: "Middle", minMinor: 50_000, maxMinor: 400_000 }),
      ),
    ).toBe("OK");
    // Nothing of a refused write lands, its audit row included.
    const audits = await testEnv.DB.prepare(
      "SELECT action, count(*) AS n FROM audit_event WHERE organization_id = ? AND entity_type = 'donor_tier' GROUP BY action ORDER BY action",
    )
      .bind(org)
      .all<{ action: string; n: number }>();
    expect(audits.results).toEqual([
      { action: "tier.create", n: 4 },
      { action: "tier.update", n: 1 },
    ]);

    const race = await Promise.allSettled(
      [0, 1, 2].map((i) =>
        caller.donors.tiers.create({ name: `Race ${i}`, minMinor: 400_000 + i, maxMinor: 500_000 }),
      ),
    );
    expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(
      race.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.code),
    ).toEqual(["CONFLICT", "CONFLICT"]);
  });

  it("keeps the previous tier, respects a manual lock and hands the donor back on unlock", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const t = await ladder(caller);
    const d = await newDonor(caller, { lastName: "Climber" });
    expect((await caller.donors.byId({ id: d })).tier?.id).toBe(t.general);
    await gift(caller, d, 60_000);
    let p = await caller.donors.byId({ id: d });
    expect([p.tier?.id, p.previousTier?.id, p.previousTier?.name]).toEqual([t.mid, t.general, "General"]);

    // Locked to Major by hand: the previous tier becomes Mid, and gifts no longer move it.
    await caller.donors.tiers.setLock({ donorId: d, locked: true, tierId: t.major });
    p = await caller.donors.byId({ id: d });
    expect([p.tier?.id, p.previousTierId, p.tierLocked]).toEqual([t.major, t.mid, true]);
    await gift(caller, d, 1_000);
    await caller.donors.tiers.create({ name: "Tiny", basis: "rolling_12m", minMinor: 0, maxMinor: 10 });
    const nightly = await runScheduled("0 3 * * *", testEnv, new Date());
    expect(nightly.every((r) => r.status === "fulfilled")).toBe(true);
    expect((await caller.donors.byId({ id: d })).tier?.id).toBe(t.major);

    // Unlocked: back on the ladder at once.
    await caller.donors.tiers.setLock({ donorId: d, locked: false });
    p = await caller.donors.byId({ id: d });
    expect([p.tier?.id, p.previousTierId, p.tierLocked]).toEqual([t.mid, t.major, false]);

    // Another organization's tier, or a tier while unlocking, is refused without a change.
    const other = await member(await makeOrg(), "owner");
    const foreign = await other.caller.donors.tiers.create({ name: "Theirs", minMinor: 0, maxMinor: null });
    expect(await codeOf(caller.donors.tiers.setLock({ donorId: d, locked: true, tierId: foreign.id }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(caller.donors.tiers.setLock({ donorId: d, locked: false, tierId: t.major }))).toBe(
      "BAD_REQUEST",
    );
    expect((await caller.donors.byId({ id: d })).tierLocked).toBe(false);
  });

  it("counts only the last 12 months on a rolling basis", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const low = await caller.donors.tiers.create({
      name: "Lapsed",
      basis: "rolling_12m",
      minMinor: 0,
      maxMinor: 10_000,
    });
    const high = await caller.donors.tiers.create({
      name: "Active",
      basis: "rolling_12m",
      minMinor: 10_000,
      maxMinor: null,
    });
    const d = await newDonor(caller, { lastName: "Rolling" });
    await gift(caller, d, 50_000, { donatedAt: Date.now() - 400 * 86400_000 });
    expect((await caller.donors.byId({ id: d })).tier?.id).toBe(low.id);
    await gift(caller, d, 10_000);
    expect((await caller.donors.byId({ id: d })).tier?.id).toBe(high.id);
  });

  it("is managed by org admins only; organizers see the distribution but cannot change the ladder", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const organizer = await member(org, "organizer", "organizer");
    const t = await ladder(owner.caller);
    expect(
      await codeOf(organizer.caller.donors.tiers.create({ name: "X", minMinor: 9_000_000, maxMinor: null })),
    ).toBe("FORBIDDEN");
    expect(await codeOf(organizer.caller.donors.tiers.delete({ id: t.general }))).toBe("FORBIDDEN");
    expect((await organizer.caller.donors.tiers.list()).tiers.length).toBe(3);
    // Deleting a tier re-assigns its donors at once.
    const d = await newDonor(owner.caller, { lastName: "Moved" });
    await owner.caller.donors.tiers.delete({ id: t.general });
    expect((await owner.caller.donors.byId({ id: d })).tier).toBeNull();
  });
});
