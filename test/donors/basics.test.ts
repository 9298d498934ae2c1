import { describe, expect, it } from "vitest";
import { buildDonorCsv } from "../../src/features/donors/export";
import { makeOrg, member } from "../fixtures";
import { codeOf } from "../helpers";

describe("donors", () => {
  it("detects duplicates, keeps tags unique, merges and refuses to delete givers", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const a = await caller.donors.create({
      data: { firstName: "Bo", lastName: "Ng", email: "BO@example.test", postalCode: "97201" },
    });
    if (!a.created) throw new Error("expected a new donor");
    const dupEmail = await caller.donors.create({
      data: { firstName: "B", lastName: "N", email: "bo@example.test" },
    });
    expect(dupEmail).toEqual({ created: false, duplicate: { id: a.id, reason: "email" } });
    const dupName = await caller.donors.create({
      data: { firstName: "bo", lastName: "NG", postalCode: "97201" },
    });
    expect(dupName.created).toBe(false);
    const forced = await caller.donors.create({
      data: { firstName: "bo", lastName: "NG", postalCode: "97201" },
      force: true,
    });
    expect(forced.created).toBe(true);
    const t = await caller.donors.tags.create({ name: "Board" });
    expect(await codeOf(caller.donors.tags.create({ name: "board" }))).toBe("CONFLICT");
    if (!forced.created) throw new Error("unreachable");
    await caller.donors.tags.assign({ donorIds: [a.id, forced.id], tagIds: [t.id], mode: "add" });
    expect((await caller.donors.list({ tagId: t.id })).total).toBe(2);
    await caller.donations.create({
      donorId: forced.id,
      campaignId: null,
      amountMinor: 5000,
      currency: "USD",
      paymentMethod: "cash",
      donatedAt: Date.now(),
    });
    expect(await codeOf(caller.donors.delete({ id: forced.id }))).toBe("UNPROCESSABLE_CONTENT");
    const preview = await caller.donors.merge({ sourceId: forced.id, targetId: a.id, dryRun: true });
    expect(preview).toMatchObject({ donations: 1, tags: 0 });
    await caller.donors.merge({ sourceId: forced.id, targetId: a.id, dryRun: false });
    const merged = await caller.donors.byId({ id: forced.id });
    expect(merged.id).toBe(a.id);
    expect(merged.lifetimeMinor).toBe(5000);
    expect(await codeOf(caller.donors.notes.create({ donorId: a.id, body: "" }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.donors.notes.create({ donorId: a.id, body: "x".repeat(5001) }))).toBe(
      "BAD_REQUEST",
    );
  });

  it("assigns tiers by range with min inclusive and max exclusive, refusing overlaps", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.donors.tiers.create({ name: "General", minMinor: 0, maxMinor: 50_000 });
    await caller.donors.tiers.create({ name: "Major", minMinor: 50_000, maxMinor: null });
    expect(
      await codeOf(caller.donors.tiers.create({ name: "Overlap", minMinor: 40_000, maxMinor: 60_000 })),
    ).toBe("CONFLICT");
    const d = await caller.donors.create({ data: { firstName: "Tia", lastName: "Ra" } });
    if (!d.created) throw new Error("unreachable");
    expect((await caller.donors.byId({ id: d.id })).tier?.name).toBe("General");
    await caller.donations.create({
      donorId: d.id,
      campaignId: null,
      amountMinor: 50_000,
      currency: "USD",
      paymentMethod: "check",
      donatedAt: Date.now(),
    });
    const after = await caller.donors.byId({ id: d.id });
    expect(after.tier?.name).toBe("Major");
    expect(after.previousTierId).not.toBeNull();
  });
});

describe("donor export", () => {
  it("streams every donor of the filter as escaped CSV, anonymized ones without personal data", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const a = await owner.caller.donors.create({
      data: { firstName: "=Evil", lastName: "Formula", email: "evil@example.test" },
    });
    const b = await owner.caller.donors.create({
      data: { firstName: "Gone", lastName: "Person", email: "gone@example.test" },
    });
    if (!a.created || !b.created) throw new Error("unreachable");
    await owner.caller.donors.anonymize({ id: b.id, confirm: "gone@example.test" });
    const { parts } = await buildDonorCsv((after) => owner.caller.donors.exportPage({ after }), "UTC");
    const text = parts.join("");
    const lines = text.trim().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(text).toContain("'=Evil Formula");
    expect(text).toContain("Anonymized");
    expect(text).not.toContain("gone@example.test");
  });
});

describe("donor notes", () => {
  it("lets the author or an org admin edit or delete a note, nobody else", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const organizer = await member(org, "organizer", "organizer");
    const other = await member(org, "organizer", "organizer");
    const d = await owner.caller.donors.create({ data: { firstName: "Noa", lastName: "Te" } });
    if (!d.created) throw new Error("unreachable");
    const { id } = await organizer.caller.donors.notes.create({
      donorId: d.id,
      body: "First call went well",
    });
    expect(await codeOf(other.caller.donors.notes.update({ id, body: "hijack" }))).toBe("FORBIDDEN");
    expect(await codeOf(other.caller.donors.notes.delete({ id }))).toBe("FORBIDDEN");
    expect(
      await codeOf(organizer.caller.donors.notes.update({ id, pinned: true, body: "Second call too" })),
    ).toBe("OK");
    const [note] = await owner.caller.donors.notes.list({ donorId: d.id });
    expect(note).toMatchObject({ body: "Second call too", pinned: 1 });
    expect(await codeOf(owner.caller.donors.notes.delete({ id }))).toBe("OK");
  });
});
