import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { codeOf } from "../helpers";
import { gift, newDonor } from "./helpers";

describe("donors tenancy and permissions", () => {
  it("answers NOT_FOUND for another organization's donors, tags, notes and tiers, and changes nothing", async () => {
    const mine = await member(await makeOrg(), "owner");
    const theirs = await member(await makeOrg(), "owner");
    const own = await newDonor(mine.caller, { lastName: "Own", email: "own@example.test" });
    const foreign = await newDonor(theirs.caller, { lastName: "Foreign", email: "foreign@example.test" });
    const foreignTag = await theirs.caller.donors.tags.create({ name: "Theirs" });
    const foreignNote = await theirs.caller.donors.notes.create({ donorId: foreign, body: "Private" });
    const foreignTier = await theirs.caller.donors.tiers.create({ name: "T", minMinor: 0, maxMinor: null });
    const ownTag = await mine.caller.donors.tags.create({ name: "Mine" });
    const c = mine.caller;
    const calls: [string, () => Promise<unknown>][] = [
      ["byId", () => c.donors.byId({ id: foreign })],
      ["update", () => c.donors.update({ id: foreign, data: { lastName: "Hijack" } })],
      ["delete", () => c.donors.delete({ id: foreign })],
      ["anonymize", () => c.donors.anonymize({ id: foreign, confirm: "foreign@example.test" })],
      ["merge source", () => c.donors.merge({ sourceId: foreign, targetId: own, dryRun: false })],
      ["merge target", () => c.donors.merge({ sourceId: own, targetId: foreign, dryRun: false })],
      ["notes.list", () => c.donors.notes.list({ donorId: foreign })],
      ["notes.create", () => c.donors.notes.create({ donorId: foreign, body: "x" })],
      ["notes.update", () => c.donors.notes.update({ id: foreignNote.id, body: "x" })],
      ["notes.delete", () => c.donors.notes.delete({ id: foreignNote.id })],
      ["tags.update", () => c.donors.tags.update({ id: foreignTag.id, name: "Mine too" })],
      ["tags.delete", () => c.donors.tags.delete({ id: foreignTag.id })],
      [
        "assign foreign donor",
        () => c.donors.tags.assign({ donorIds: [foreign], tagIds: [ownTag.id], mode: "add" }),
      ],
      [
        "assign foreign tag",
        () => c.donors.tags.assign({ donorIds: [own], tagIds: [foreignTag.id], mode: "add" }),
      ],
      [
        "tiers.update",
        () => c.donors.tiers.update({ id: foreignTier.id, name: "X", minMinor: 0, maxMinor: null }),
      ],
      ["tiers.delete", () => c.donors.tiers.delete({ id: foreignTier.id })],
      ["tiers.setLock", () => c.donors.tiers.setLock({ donorId: foreign, locked: true })],
    ];
    for (const [name, call] of calls) expect(`${name}: ${await codeOf(call())}`).toBe(`${name}: NOT_FOUND`);
    const after = await theirs.caller.donors.byId({ id: foreign });
    expect(after).toMatchObject({
      name: "Foreign",
      anonymized: false,
      mergedIntoId: null,
      tierLocked: false,
      tags: [],
    });
    expect((await theirs.caller.donors.notes.list({ donorId: foreign })).map((n) => n.body)).toEqual([
      "Private",
    ]);
    expect((await theirs.caller.donors.tags.list()).map((t) => t.name)).toEqual(["Theirs"]);
    expect((await mine.caller.donors.list({})).rows.map((r) => r.id)).toEqual([own]);
    // A filter on another organization's tag or tier finds nothing, rather than leaking.
    expect((await mine.caller.donors.list({ tagId: foreignTag.id })).total).toBe(0);
    expect((await mine.caller.donors.list({ tierId: foreignTier.id })).total).toBe(0);
  });

  it("lets a viewer read only, an organizer work donors but not delete, anonymize or export beyond rights", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const organizer = await member(org, "organizer", "organizer");
    const viewer = await member(org, "viewer");
    const outsider = await member(await makeOrg(), "owner");
    const d = await newDonor(owner.caller, { lastName: "Shared" });
    const x = await newDonor(owner.caller, { lastName: "Other" });
    const tag = await owner.caller.donors.tags.create({ name: "T" });
    await gift(owner.caller, d, 1_000);

    expect(await codeOf(viewer.caller.donors.list({}))).toBe("OK");
    expect(await codeOf(viewer.caller.donors.byId({ id: d }))).toBe("OK");
    for (const call of [
      () => viewer.caller.donors.create({ data: { lastName: "V" } }),
      () => viewer.caller.donors.update({ id: d, data: { lastName: "V" } }),
      () => viewer.caller.donors.delete({ id: x }),
      () => viewer.caller.donors.merge({ sourceId: x, targetId: d }),
      () => viewer.caller.donors.tags.create({ name: "V" }),
      () => viewer.caller.donors.tags.assign({ donorIds: [d], tagIds: [tag.id], mode: "add" }),
      () => viewer.caller.donors.tiers.setLock({ donorId: d, locked: true }),
    ])
      expect(await codeOf(call())).toBe("FORBIDDEN");

    expect(await codeOf(organizer.caller.donors.create({ data: { lastName: "O" } }))).toBe("OK");
    expect(
      await codeOf(organizer.caller.donors.tags.assign({ donorIds: [d], tagIds: [tag.id], mode: "add" })),
    ).toBe("OK");
    expect(await codeOf(organizer.caller.donors.delete({ id: x }))).toBe("FORBIDDEN");
    expect(await codeOf(organizer.caller.donors.exportPage({}))).toBe("OK");

    // No membership: the organization's ids do not exist for an outsider.
    expect(await codeOf(outsider.caller.donors.byId({ id: d }))).toBe("NOT_FOUND");
    expect((await owner.caller.donors.byId({ id: x })).name).toBe("Other");
  });
});
