import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { newDonor, refusal } from "./helpers";

describe("tags", () => {
  it("keeps names unique per organization regardless of case, on create and on rename", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const board = await caller.donors.tags.create({ name: "Board" });
    const e = await refusal(caller.donors.tags.create({ name: "  bOARD " }));
    expect(e.code).toBe("CONFLICT");
    expect((e.cause as { details?: unknown }).details).toEqual({ field: "name" });
    const gala = await caller.donors.tags.create({ name: "Gala 2026", color: "#aa0000" });
    expect(await codeOf(caller.donors.tags.update({ id: gala.id, name: "BOARD", color: "#aa0000" }))).toBe(
      "CONFLICT",
    );
    expect(
      await codeOf(caller.donors.tags.update({ id: board.id, name: "Board members", color: "#112233" })),
    ).toBe("OK");
    expect(await codeOf(caller.donors.tags.create({ name: "x", color: "red" }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.donors.tags.create({ name: "" }))).toBe("BAD_REQUEST");
    expect(await codeOf(caller.donors.tags.create({ name: "y".repeat(41) }))).toBe("BAD_REQUEST");
    // The same name in another organization is fine.
    const other = await member(await makeOrg(), "owner");
    expect(await codeOf(other.caller.donors.tags.create({ name: "Board members" }))).toBe("OK");
    const tags = await caller.donors.tags.list();
    expect(tags.map((t) => [t.name, t.color])).toEqual([
      ["Board members", "#112233"],
      ["Gala 2026", "#aa0000"],
    ]);
    const audit = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND action = 'tag.update'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(audit?.n).toBe(1);
  });

  it("lets one of two simultaneous creates with one name through; the other gets the name's 409", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const answers = await Promise.all(
      ["Volunteer", "VOLUNTEER"].map((name) =>
        caller.donors.tags.create({ name }).then(
          () => "OK",
          (e: { code?: string; message?: string; cause?: { details?: unknown } }) =>
            `${e.code}: ${e.message} ${JSON.stringify(e.cause?.details)}`,
        ),
      ),
    );
    expect(answers.sort()).toEqual(['CONFLICT: A tag with this name already exists {"field":"name"}', "OK"]);
    // Nothing half-written: one tag, one audit row.
    expect((await caller.donors.tags.list()).map((t) => t.name)).toHaveLength(1);
    const audit = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM audit_event WHERE organization_id = ? AND action = 'tag.create'",
    )
      .bind(org)
      .first<{ n: number }>();
    expect(audit?.n).toBe(1);
  });

  it("assigns in bulk with add, remove and replace, and deleting a tag reports the donors affected", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const [a, b, c] = [
      await newDonor(caller, { lastName: "A" }),
      await newDonor(caller, { lastName: "B" }),
      await newDonor(caller, { lastName: "C" }),
    ];
    const [t1, t2, t3] = await Promise.all(
      ["One", "Two", "Three"].map((name) => caller.donors.tags.create({ name })),
    );
    if (!t1 || !t2 || !t3) throw new Error("unreachable");
    const tagsOf = async (id: string) => (await caller.donors.byId({ id })).tags.map((t) => t.name).sort();

    await caller.donors.tags.assign({ donorIds: [a, b, c], tagIds: [t1.id, t2.id], mode: "add" });
    // Adding again is idempotent.
    await caller.donors.tags.assign({ donorIds: [a, a], tagIds: [t1.id], mode: "add" });
    expect(await tagsOf(a)).toEqual(["One", "Two"]);
    await caller.donors.tags.assign({ donorIds: [a, b], tagIds: [t1.id], mode: "remove" });
    expect([await tagsOf(a), await tagsOf(b), await tagsOf(c)]).toEqual([["Two"], ["Two"], ["One", "Two"]]);
    await caller.donors.tags.assign({ donorIds: [b, c], tagIds: [t3.id], mode: "replace" });
    expect([await tagsOf(a), await tagsOf(b), await tagsOf(c)]).toEqual([["Two"], ["Three"], ["Three"]]);
    await caller.donors.tags.assign({ donorIds: [c], tagIds: [], mode: "replace" });
    expect(await tagsOf(c)).toEqual([]);
    expect(await codeOf(caller.donors.tags.assign({ donorIds: [a], tagIds: [], mode: "add" }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(caller.donors.tags.assign({ donorIds: [], tagIds: [t1.id], mode: "add" }))).toBe(
      "BAD_REQUEST",
    );
    // One unknown id refuses the whole call: nothing half-applied.
    expect(
      await codeOf(caller.donors.tags.assign({ donorIds: [a, "nope"], tagIds: [t1.id], mode: "add" })),
    ).toBe("NOT_FOUND");
    expect(await tagsOf(a)).toEqual(["Two"]);
    expect((await caller.donors.list({ tagId: t2.id })).total).toBe(1);

    expect(await caller.donors.tags.delete({ id: t3.id })).toEqual({ id: t3.id, donorsAffected: 1 });
    expect(await tagsOf(b)).toEqual([]);
    expect(await codeOf(caller.donors.tags.delete({ id: t3.id }))).toBe("NOT_FOUND");
  });
});

describe("notes", () => {
  it("lists pinned first then newest, with visibility, and only the author or an org admin may change one", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const admin = await member(org, "admin");
    const author = await member(org, "organizer", "organizer");
    const colleague = await member(org, "organizer", "organizer");
    const viewer = await member(org, "viewer");
    const d = await newDonor(owner.caller, { lastName: "Noted" });
    const first = await author.caller.donors.notes.create({ donorId: d, body: "First" });
    const second = await author.caller.donors.notes.create({
      donorId: d,
      body: "Second",
      visibility: "shared",
    });
    const third = await colleague.caller.donors.notes.create({ donorId: d, body: "Third" });
    // Distinct creation times, so "newest first" is observable.
    for (const [i, n] of [first, second, third].entries())
      await testEnv.DB.prepare("UPDATE donor_note SET created_at = ? WHERE id = ?")
        .bind(1_000 * (i + 1), n.id)
        .run();
    await author.caller.donors.notes.update({ id: first.id, pinned: true });
    const list = await viewer.caller.donors.notes.list({ donorId: d });
    expect(list.map((n) => [n.id, n.pinned, n.visibility])).toEqual([
      [first.id, 1, "internal"],
      [third.id, 0, "internal"],
      [second.id, 0, "shared"],
    ]);

    expect(await codeOf(colleague.caller.donors.notes.update({ id: first.id, body: "mine now" }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(colleague.caller.donors.notes.delete({ id: first.id }))).toBe("FORBIDDEN");
    expect(await codeOf(viewer.caller.donors.notes.create({ donorId: d, body: "hi" }))).toBe("FORBIDDEN");
    expect(await codeOf(viewer.caller.donors.notes.delete({ id: third.id }))).toBe("FORBIDDEN");
    expect(await codeOf(author.caller.donors.notes.update({ id: second.id, visibility: "internal" }))).toBe(
      "OK",
    );
    expect(await codeOf(admin.caller.donors.notes.update({ id: third.id, body: "Edited by an admin" }))).toBe(
      "OK",
    );
    expect(await codeOf(admin.caller.donors.notes.delete({ id: second.id }))).toBe("OK");
    const after = await owner.caller.donors.notes.list({ donorId: d });
    expect(after.map((n) => [n.body, n.visibility])).toEqual([
      ["First", "internal"],
      ["Edited by an admin", "internal"],
    ]);

    // 1–5 000 characters, trimmed; a bad visibility is a 400.
    expect(await codeOf(author.caller.donors.notes.create({ donorId: d, body: "   " }))).toBe("BAD_REQUEST");
    expect(await codeOf(author.caller.donors.notes.create({ donorId: d, body: "x".repeat(5001) }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(author.caller.donors.notes.create({ donorId: d, body: "x".repeat(5000) }))).toBe(
      "OK",
    );
    expect(
      await codeOf(
        author.caller.donors.notes.create({ donorId: d, body: "x", visibility: "public" as never }),
      ),
    ).toBe("BAD_REQUEST");
    expect(await codeOf(author.caller.donors.notes.update({ id: first.id, body: "" }))).toBe("BAD_REQUEST");
  });
});
