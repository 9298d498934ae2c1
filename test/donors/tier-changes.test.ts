/**
 * Editing and deleting donor tiers (docs/decisions/025-deleting-a-tier.md): every change re-evaluates
 * the donors in its own batch, no donor is left with a tier that no longer exists, and the counts of
 * donors.tiers.list add up to the organization's donor total.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv, trpcError, trpcHttp } from "../helpers";
import { type Caller, gift, newDonor, refusal } from "./helpers";

async function ladder(caller: Caller) {
  const general = await caller.donors.tiers.create({ name: "General", minMinor: 0, maxMinor: 50_000 });
  const mid = await caller.donors.tiers.create({ name: "Mid", minMinor: 50_000, maxMinor: 500_000 });
  const major = await caller.donors.tiers.create({ name: "Major", minMinor: 500_000, maxMinor: null });
  return { general: general.id, mid: mid.id, major: major.id };
}

async function donorWith(caller: Caller, lastName: string, amount: number) {
  const id = await newDonor(caller, {
    lastName,
    email: `${lastName.toLowerCase()}-${crypto.randomUUID()}@example.test`,
  });
  if (amount) await gift(caller, id, amount);
  return id;
}

/** The donor's tier, previous tier and lock, straight from the row. */
async function tierRow(id: string) {
  return testEnv.DB.prepare("SELECT tier_id, previous_tier_id, tier_locked FROM donor WHERE id = ?")
    .bind(id)
    .first<{ tier_id: string | null; previous_tier_id: string | null; tier_locked: number }>();
}

/** Per-tier counts + no tier = the total, and the total is what /donors counts. */
async function expectCountsAddUp(caller: Caller) {
  const l = await caller.donors.tiers.list();
  const listed = await caller.donors.list({});
  expect(l.tiers.reduce((s, t) => s + t.donors, 0) + l.noTier).toBe(l.total);
  expect(l.total).toBe(listed.total);
  return l;
}

/** Tier ids a donor of the organization names that are not tiers of the organization. */
async function dangling(org: string) {
  const r = await testEnv.DB.prepare(
    `SELECT count(*) AS n FROM donor d WHERE d.organization_id = ?1 AND (
       (d.tier_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM donor_tier t WHERE t.id = d.tier_id AND t.organization_id = ?1))
       OR (d.previous_tier_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM donor_tier t WHERE t.id = d.previous_tier_id AND t.organization_id = ?1)))`,
  )
    .bind(org)
    .first<{ n: number }>();
  return r?.n;
}

async function tierAudits(org: string, action: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT entity_id, before, after FROM audit_event WHERE organization_id = ? AND action = ? ORDER BY at",
  )
    .bind(org, action)
    .all<{ entity_id: string; before: string | null; after: string | null }>();
  return results;
}

describe("editing a tier", () => {
  it("changes name, colour and range and re-evaluates every unlocked donor at once; a locked donor stays", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const t = await ladder(caller);
    const forty = await donorWith(caller, "Forty", 40_000);
    const sixty = await donorWith(caller, "Sixty", 60_000);
    const held = await donorWith(caller, "Held", 10_000);
    await caller.donors.tiers.setLock({ donorId: held, locked: true, tierId: t.mid });

    // Mid starts higher: 600.00 now falls in the gap and has no tier; the locked donor stays in Mid.
    await caller.donors.tiers.update({
      id: t.mid,
      name: "Middle",
      minMinor: 70_000,
      maxMinor: 500_000,
      color: "#123456",
    });
    expect((await tierRow(sixty))?.tier_id).toBeNull();
    expect((await tierRow(sixty))?.previous_tier_id).toBe(t.mid);
    expect((await tierRow(held))?.tier_id).toBe(t.mid);
    let l = await expectCountsAddUp(caller);
    expect(l.tiers.map((x) => [x.name, x.color, x.donors])).toEqual([
      ["General", "#64748b", 1],
      ["Middle", "#123456", 1],
      ["Major", "#64748b", 0],
    ]);
    expect(l.noTier).toBe(1);

    // General grows over the gap: 600.00 is General, 400.00 stays.
    await caller.donors.tiers.update({ id: t.general, name: "General", minMinor: 0, maxMinor: 70_000 });
    expect([(await tierRow(sixty))?.tier_id, (await tierRow(forty))?.tier_id]).toEqual([
      t.general,
      t.general,
    ]);
    l = await expectCountsAddUp(caller);
    expect([l.tiers[0]?.donors, l.noTier]).toEqual([2, 0]);

    const audits = await tierAudits(org, "tier.update");
    expect(
      audits.map((a) => [
        a.entity_id,
        JSON.parse(a.before ?? "{}").minMinor,
        JSON.parse(a.after ?? "{}").minMinor,
      ]),
    ).toEqual([
      [t.mid, 50_000, 70_000],
      [t.general, 0, 0],
    ]);
  });

  it("refuses an overlap, a bad range, an unknown tier and unknown fields, changing nothing", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const t = await ladder(caller);
    const e = await refusal(
      caller.donors.tiers.update({ id: t.general, name: "General", minMinor: 0, maxMinor: 60_000 }),
    );
    expect([e.code, e.message]).toEqual(["CONFLICT", 'This range overlaps the tier "Mid"']);
    expect(
      await codeOf(caller.donors.tiers.update({ id: t.general, name: "G", minMinor: 500, maxMinor: 500 })),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(caller.donors.tiers.update({ id: t.general, name: " ", minMinor: 0, maxMinor: 500 })),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(
        caller.donors.tiers.update({ id: t.general, name: "G", minMinor: 0, maxMinor: 500, color: "red" }),
      ),
    ).toBe("BAD_REQUEST");
    expect(
      await codeOf(caller.donors.tiers.update({ id: "nope", name: "G", minMinor: 0, maxMinor: 500 })),
    ).toBe("NOT_FOUND");
    expect(
      await codeOf(
        caller.donors.tiers.update({
          id: t.general,
          name: "G",
          minMinor: 0,
          maxMinor: 500,
          sortOrder: 2,
        } as never),
      ),
    ).toBe("BAD_REQUEST");
    const l = await caller.donors.tiers.list();
    expect(l.tiers.map((x) => [x.name, x.minMinor, x.maxMinor])).toEqual([
      ["General", 0, 50_000],
      ["Mid", 50_000, 500_000],
      ["Major", 500_000, null],
    ]);
    expect(await tierAudits(org, "tier.update")).toEqual([]);
  });
});

describe("deleting a tier", () => {
  it("re-evaluates its donors by default: each takes the remaining tier it fits or none, a lock to it goes", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const t = await ladder(caller);
    const big = await donorWith(caller, "Big", 600_000);
    const held = await donorWith(caller, "Held", 10_000);
    await caller.donors.tiers.setLock({ donorId: held, locked: true, tierId: t.major });
    // Was Major, climbed down by hand: Major is only its previous tier.
    const was = await donorWith(caller, "Was", 60_000);
    await caller.donors.tiers.setLock({ donorId: was, locked: true, tierId: t.major });
    await caller.donors.tiers.setLock({ donorId: was, locked: true, tierId: t.mid });
    expect((await tierRow(was))?.previous_tier_id).toBe(t.major);

    const r = await caller.donors.tiers.delete({ id: t.major });
    expect(r).toEqual({ id: t.major, action: "reevaluate", donors: 2, unlocked: 1, to: null });
    // 6 000.00 fits no remaining tier; the donor locked to Major is unlocked and is General now.
    expect(await tierRow(big)).toEqual({ tier_id: null, previous_tier_id: null, tier_locked: 0 });
    expect(await tierRow(held)).toEqual({ tier_id: t.general, previous_tier_id: null, tier_locked: 0 });
    expect(await tierRow(was)).toEqual({ tier_id: t.mid, previous_tier_id: null, tier_locked: 1 });
    expect(await dangling(org)).toBe(0);
    const l = await expectCountsAddUp(caller);
    expect([l.tiers.map((x) => x.donors), l.noTier]).toEqual([[1, 1], 1]);

    const [audit] = await tierAudits(org, "tier.delete");
    expect(JSON.parse(audit?.before ?? "{}")).toMatchObject({ name: "Major", minMinor: 500_000 });
    expect(JSON.parse(audit?.after ?? "{}")).toEqual({ donors: "reevaluate", moved: 2, unlocked: 1 });
    // Gone is gone: a second delete is a 404 and writes no second audit row.
    expect(await codeOf(caller.donors.tiers.delete({ id: t.major }))).toBe("NOT_FOUND");
    expect(await tierAudits(org, "tier.delete")).toHaveLength(1);
  });

  it("moves its donors to a neighbour whose range grows over it; a locked donor stays locked, to the neighbour", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const t = await ladder(caller);
    const sixty = await donorWith(caller, "Sixty", 60_000);
    const held = await donorWith(caller, "Held", 10_000);
    await caller.donors.tiers.setLock({ donorId: held, locked: true, tierId: t.mid });

    const r = await caller.donors.tiers.delete({ id: t.mid, donors: { action: "move", tierId: t.major } });
    expect(r).toEqual({
      id: t.mid,
      action: "move",
      donors: 2,
      unlocked: 0,
      to: { id: t.major, name: "Major" },
    });
    expect(await tierRow(sixty)).toEqual({ tier_id: t.major, previous_tier_id: null, tier_locked: 0 });
    expect(await tierRow(held)).toEqual({ tier_id: t.major, previous_tier_id: null, tier_locked: 1 });
    let l = await expectCountsAddUp(caller);
    expect(l.tiers.map((x) => [x.name, x.minMinor, x.maxMinor, x.donors])).toEqual([
      ["General", 0, 50_000, 0],
      ["Major", 50_000, null, 2],
    ]);
    // The next gift (and the nightly recompute) agree: 600.00 is in Major's range now.
    await gift(caller, sixty, 100);
    expect((await tierRow(sixty))?.tier_id).toBe(t.major);

    // Downwards: General grows up to the top of the deleted tier.
    const r2 = await caller.donors.tiers.delete({
      id: t.major,
      donors: { action: "move", tierId: t.general },
    });
    expect(r2.to?.name).toBe("General");
    l = await expectCountsAddUp(caller);
    expect(l.tiers.map((x) => [x.name, x.minMinor, x.maxMinor, x.donors])).toEqual([["General", 0, null, 2]]);
    expect((await tierRow(held))?.tier_locked).toBe(1);
    expect(await dangling(org)).toBe(0);
    expect((await tierAudits(org, "tier.delete")).map((a) => JSON.parse(a.after ?? "{}"))).toEqual([
      { donors: "move", tierId: t.major, moved: 2, range: { minMinor: 50_000, maxMinor: null } },
      { donors: "move", tierId: t.general, moved: 2, range: { minMinor: 0, maxMinor: null } },
    ]);
  });

  it("refuses moving donors to itself, a tier that is not a neighbour, another basis or another organization", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const t = await ladder(caller);
    const recent = await caller.donors.tiers.create({
      name: "Recent",
      basis: "rolling_12m",
      minMinor: 0,
      maxMinor: null,
    });
    const theirs = await (await member(await makeOrg(), "owner")).caller.donors.tiers.create({
      name: "Theirs",
      minMinor: 0,
      maxMinor: null,
    });
    const d = await donorWith(caller, "Stays", 600_000);
    const move = (tierId: string) =>
      caller.donors.tiers.delete({ id: t.major, donors: { action: "move", tierId } });
    const self = await refusal(move(t.major));
    expect([self.code, self.message]).toEqual(["BAD_REQUEST", "Choose another tier for its donors"]);
    const far = await refusal(move(t.general));
    expect([far.code, far.message]).toEqual([
      "UNPROCESSABLE_CONTENT",
      'Donors can move only to a tier next to "Major" on the same basis; "General" is not',
    ]);
    expect(await codeOf(move(recent.id))).toBe("UNPROCESSABLE_CONTENT");
    expect(await codeOf(move(theirs.id))).toBe("NOT_FOUND");
    expect(
      await codeOf(caller.donors.tiers.delete({ id: t.major, donors: { action: "drop" } } as never)),
    ).toBe("BAD_REQUEST");
    expect(await codeOf(caller.donors.tiers.delete({ id: "nope" }))).toBe("NOT_FOUND");
    // Nothing moved, nothing deleted, nothing audited.
    expect((await tierRow(d))?.tier_id).toBe(t.major);
    expect((await caller.donors.tiers.list()).tiers).toHaveLength(4);
    expect(await tierAudits(org, "tier.delete")).toEqual([]);
  });

  it("answers bad input over HTTP with a 4xx in the error shape, never a 500", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const t = await ladder(owner.caller);
    let res = await trpcHttp(owner.jar, "donors.tiers.update", {
      id: t.mid,
      name: "Mid",
      minMinor: 90_000,
      maxMinor: 80_000,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: { json: { data: { code: string; fieldErrors: Record<string, string[]> } } };
    };
    expect(body.error.json.data.code).toBe("BAD_REQUEST");
    expect(body.error.json.data.fieldErrors).toEqual({ maxMinor: ["The maximum must be above the minimum"] });

    res = await trpcHttp(owner.jar, "donors.tiers.update", {
      id: t.mid,
      name: "Mid",
      minMinor: 10_000,
      maxMinor: 500_000,
    });
    expect(res.status).toBe(409);
    expect(await trpcError(res)).toMatchObject({ code: "CONFLICT", details: { field: "minMinor" } });

    res = await trpcHttp(owner.jar, "donors.tiers.delete", {
      id: t.major,
      donors: { action: "move", tierId: t.general },
    });
    expect(res.status).toBe(422);
    expect(await trpcError(res)).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      details: { field: "tierId" },
    });

    res = await trpcHttp(owner.jar, "donors.tiers.delete", { id: t.major, donors: { action: "move" } });
    expect(res.status).toBe(400);
  });
});

describe("tier counts", () => {
  it("add up to the donor total through create, edit and delete, whatever the donors", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    // Before any tier: everyone is in no tier.
    const none = await donorWith(caller, "None", 0);
    let l = await expectCountsAddUp(caller);
    expect([l.tiers, l.noTier, l.total]).toEqual([[], 1, 1]);

    // A ladder that starts above 0: donors without gifts are in no tier.
    const mid = await caller.donors.tiers.create({ name: "Mid", minMinor: 50_000, maxMinor: 500_000 });
    const major = await caller.donors.tiers.create({ name: "Major", minMinor: 500_000, maxMinor: null });
    await donorWith(caller, "Small", 1_000);
    await donorWith(caller, "Middle", 60_000);
    const held = await donorWith(caller, "Held", 0);
    await caller.donors.tiers.setLock({ donorId: held, locked: true, tierId: major.id });
    const nobody = await donorWith(caller, "Nobody", 70_000);
    await caller.donors.tiers.setLock({ donorId: nobody, locked: true, tierId: null });
    // Anonymized (keeps its tier, still a donor on /donors) and merged (not a donor any more).
    const anon = await donorWith(caller, "Anon", 80_000);
    const anonEmail = (await caller.donors.byId({ id: anon })).email ?? "";
    await caller.donors.anonymize({ id: anon, confirm: anonEmail });
    const dupe = await donorWith(caller, "Dupe", 90_000);
    await caller.donors.merge({ sourceId: dupe, targetId: none, dryRun: false });
    const gone = await donorWith(caller, "Gone", 0);
    await caller.donors.delete({ id: gone });
    l = await expectCountsAddUp(caller);
    expect(l.tiers.map((x) => [x.name, x.donors])).toEqual([
      ["Mid", 3],
      ["Major", 1],
    ]);
    expect([l.noTier, l.total]).toEqual([2, 6]);

    const general = await caller.donors.tiers.create({ name: "General", minMinor: 0, maxMinor: 50_000 });
    await expectCountsAddUp(caller);
    await caller.donors.tiers.update({
      id: mid.id,
      name: "Mid",
      basis: "rolling_12m",
      minMinor: 50_000,
      maxMinor: 500_000,
    });
    await expectCountsAddUp(caller);
    await caller.donors.tiers.delete({ id: major.id });
    await expectCountsAddUp(caller);
    await caller.donors.tiers.delete({ id: general.id });
    l = await expectCountsAddUp(caller);
    // The donor locked to "no tier" by hand keeps that choice; no id dangles.
    expect(await tierRow(nobody)).toMatchObject({ tier_id: null, tier_locked: 1 });
    expect(await dangling(org)).toBe(0);
  });
});

describe("tier permissions", () => {
  it("lets owners and admins edit and delete; organizers and viewers are refused; an outsider finds nothing", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const t = await ladder(owner.caller);
    const edit = (c: Caller, name: string) =>
      c.donors.tiers.update({ id: t.general, name, minMinor: 0, maxMinor: 50_000 });
    const outsider = await member(await makeOrg(), "owner");
    for (const role of ["organizer", "viewer"] as const) {
      const { caller } = await member(org, role);
      expect([role, await codeOf(edit(caller, role))]).toEqual([role, "FORBIDDEN"]);
      expect([role, await codeOf(caller.donors.tiers.delete({ id: t.mid }))]).toEqual([role, "FORBIDDEN"]);
      expect([role, (await caller.donors.tiers.list()).tiers.length]).toEqual([role, 3]);
    }
    expect(await codeOf(edit(outsider.caller, "Outsider"))).toBe("NOT_FOUND");
    expect(await codeOf(outsider.caller.donors.tiers.delete({ id: t.mid }))).toBe("NOT_FOUND");
    expect((await outsider.caller.donors.tiers.list()).tiers).toEqual([]);

    const admin = await member(org, "admin");
    expect(await codeOf(edit(admin.caller, "Admin's"))).toBe("OK");
    expect(await codeOf(admin.caller.donors.tiers.delete({ id: t.mid }))).toBe("OK");
    expect(await codeOf(edit(owner.caller, "Owner's"))).toBe("OK");
    expect(await codeOf(owner.caller.donors.tiers.delete({ id: t.major }))).toBe("OK");
    expect((await owner.caller.donors.tiers.list()).tiers.map((x) => x.name)).toEqual(["Owner's"]);
  });
});

describe("repair migration 0014", () => {
  it("gives donors left by the old delete a tier, unlocking a lock to nothing unless it was chosen by hand", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const t = await ladder(caller);
    const held = await donorWith(caller, "Held", 60_000);
    await caller.donors.tiers.setLock({ donorId: held, locked: true, tierId: t.major });
    const chose = await donorWith(caller, "Chose", 60_000);
    await caller.donors.tiers.setLock({ donorId: chose, locked: true, tierId: null });
    const prev = await donorWith(caller, "Prev", 600_000);
    // What the old delete did: the tier's donors to no tier, the tier gone, the ladder recomputed
    // (which skipped the locked donor), previous tiers left naming it.
    await testEnv.DB.batch([
      testEnv.DB.prepare("UPDATE donor SET tier_id = NULL WHERE tier_id = ?").bind(t.major),
      testEnv.DB.prepare("DELETE FROM donor_tier WHERE id = ?").bind(t.major),
      testEnv.DB.prepare("UPDATE donor SET previous_tier_id = ? WHERE id = ?").bind(t.major, prev),
    ]);
    expect(await tierRow(held)).toEqual({ tier_id: null, previous_tier_id: t.mid, tier_locked: 1 });

    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0014_"));
    expect(migration?.name).toBe("0014_repair_deleted_tier_donors.sql");
    await testEnv.DB.batch((migration?.queries ?? []).map((q) => testEnv.DB.prepare(q)));

    expect(await tierRow(held)).toEqual({ tier_id: t.mid, previous_tier_id: t.mid, tier_locked: 0 });
    expect(await tierRow(chose)).toMatchObject({ tier_id: null, tier_locked: 1 });
    expect(await tierRow(prev)).toEqual({ tier_id: null, previous_tier_id: null, tier_locked: 0 });
    expect(await dangling(org)).toBe(0);
    await expectCountsAddUp(caller);
  });
});
