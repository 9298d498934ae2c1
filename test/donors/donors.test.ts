import { DONOR_PAGE_GIFTS } from "@core/limits";
import { startOfLocalDay } from "@core/time";
import { describe, expect, it } from "vitest";
import { buildDonorCsv } from "../../src/features/donors/export";
import { expectAnalyticsRebuildable } from "../donations/brute";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { type Caller, gift, newDonor, refusal } from "./helpers";

async function exportCsv(caller: Caller, filters: Parameters<Caller["donors"]["exportPage"]>[0] = {}) {
  const { parts } = await buildDonorCsv((after) => caller.donors.exportPage({ ...filters, after }), "UTC");
  return parts.join("");
}

describe("duplicate detection", () => {
  it("answers with the existing donor on the same e-mail (any case) or the same name and postal code", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const a = await caller.donors.create({
      data: { firstName: "Ada", lastName: "Lind", email: "Ada.Lind@Example.test", postalCode: "1010" },
    });
    if (!a.created) throw new Error("unreachable");
    expect(
      await caller.donors.create({ data: { lastName: "Other", email: "ada.lind@example.TEST" } }),
    ).toEqual({
      created: false,
      duplicate: { id: a.id, reason: "email" },
    });
    // Forcing cannot break e-mail uniqueness.
    expect(
      await caller.donors.create({
        data: { lastName: "Other", email: "ada.lind@example.test" },
        force: true,
      }),
    ).toMatchObject({ created: false, duplicate: { reason: "email" } });
    expect(
      await caller.donors.create({ data: { firstName: "ADA", lastName: "lind", postalCode: "1010" } }),
    ).toEqual({ created: false, duplicate: { id: a.id, reason: "name_postal_code" } });
    // A different postal code is a different person; forcing creates a suggested duplicate.
    expect(
      (await caller.donors.create({ data: { firstName: "Ada", lastName: "Lind", postalCode: "2020" } }))
        .created,
    ).toBe(true);
    expect(
      (
        await caller.donors.create({
          data: { firstName: "Ada", lastName: "Lind", postalCode: "1010" },
          force: true,
        })
      ).created,
    ).toBe(true);
    // Another organization's donor is never a duplicate.
    const other = await member(await makeOrg(), "owner");
    expect(
      (await other.caller.donors.create({ data: { email: "ada.lind@example.test", lastName: "L" } })).created,
    ).toBe(true);
  });

  it("lets exactly one of two simultaneous creates with one e-mail through, the other gets the duplicate", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => caller.donors.create({ data: { lastName: "Race", email: "race@example.test" } })),
    );
    const values = results.map((r) => (r.status === "fulfilled" ? r.value : null));
    expect(values.every((v) => v !== null)).toBe(true);
    const created = values.filter((v) => v?.created);
    expect(created).toHaveLength(1);
    const { n } = (await testEnv.DB.prepare("SELECT count(*) AS n FROM donor WHERE organization_id = ?")
      .bind(org)
      .first<{ n: number }>()) ?? { n: 0 };
    expect(n).toBe(1);
  });

  it("refuses an update onto another donor's e-mail and smuggled fields", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await newDonor(caller, { lastName: "One", email: "one@example.test" });
    const two = await newDonor(caller, { lastName: "Two", email: "two@example.test" });
    const e = await refusal(
      caller.donors.update({ id: two, data: { lastName: "Two", email: "ONE@example.test" } }),
    );
    expect(e.code).toBe("CONFLICT");
    expect(
      await codeOf(
        caller.donors.update({ id: two, data: { lastName: "Two", organizationId: "x" } as never }),
      ),
    ).toBe("BAD_REQUEST");
    expect(await codeOf(caller.donors.update({ id: two, data: { type: "individual" } }))).toBe("BAD_REQUEST");
  });
});

describe("merge", () => {
  it("previews exactly what the merge then does, moves donations, notes and tags, and keeps old ids resolving", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const keep = await newDonor(caller, { firstName: "Kim", lastName: "Keep" });
    const dupe = await newDonor(caller, { firstName: "Kim", lastName: "Keep", email: "kim@example.test" });
    const older = await newDonor(caller, { firstName: "K.", lastName: "Keep" });
    const [vip, board] = await Promise.all([
      caller.donors.tags.create({ name: "VIP" }),
      caller.donors.tags.create({ name: "Board" }),
    ]);
    await caller.donors.tags.assign({ donorIds: [keep, dupe], tagIds: [vip.id], mode: "add" });
    await caller.donors.tags.assign({ donorIds: [dupe], tagIds: [board.id], mode: "add" });
    await gift(caller, keep, 10_000);
    await gift(caller, dupe, 2_500);
    await gift(caller, dupe, 1_500, { status: "pending" });
    await gift(caller, older, 700);
    await caller.donors.notes.create({ donorId: dupe, body: "Met at the gala" });
    await caller.donors.notes.create({ donorId: dupe, body: "Prefers e-mail", pinned: true });
    // An earlier merge: `older` already points at `dupe`.
    await caller.donors.merge({ sourceId: older, targetId: dupe, dryRun: false });

    const preview = await caller.donors.merge({ sourceId: dupe, targetId: keep });
    expect(preview).toMatchObject({
      dryRun: true,
      donations: 3,
      notes: 2,
      tags: 1,
      email: "kim@example.test",
      result: { lifetimeMinor: 13_200, donationCount: 3 },
    });
    // A dry run changes nothing.
    expect((await caller.donors.byId({ id: dupe })).id).toBe(dupe);

    const done = await caller.donors.merge({ sourceId: dupe, targetId: keep, dryRun: false });
    expect({ ...done, dryRun: true }).toEqual(preview);
    // The dashboard's per-donor rollups moved with the gifts (decision 032): they equal a rebuild.
    const zone = await testEnv.DB.prepare("SELECT time_zone AS tz FROM organization WHERE id = ?")
      .bind(org)
      .first<{ tz: string }>();
    await expectAnalyticsRebuildable(org, zone?.tz as string, "after the merge");
    expect(
      await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM donor_period WHERE donor_id IN (?, ?)")
        .bind(dupe, older)
        .first<{ n: number }>(),
    ).toEqual({ n: 0 });
    const survivor = await caller.donors.byId({ id: keep });
    expect(survivor.lifetimeMinor).toBe(preview.result.lifetimeMinor);
    expect(survivor.donationCount).toBe(preview.result.donationCount);
    expect(survivor.donations).toHaveLength(preview.donations + 1);
    expect(survivor.email).toBe("kim@example.test");
    expect(survivor.tags.map((t) => t.name).sort()).toEqual(["Board", "VIP"]);
    expect(await caller.donors.notes.list({ donorId: keep })).toHaveLength(preview.notes);
    // Both old ids resolve to the survivor, the older one too (no chain of pointers).
    expect((await caller.donors.byId({ id: dupe })).id).toBe(keep);
    expect((await caller.donors.byId({ id: older })).id).toBe(keep);
    expect((await caller.donors.notes.list({ donorId: dupe })).length).toBe(2);
    const rows = await testEnv.DB.prepare(
      "SELECT id, merged_into_id, donation_count FROM donor WHERE id IN (?, ?)",
    )
      .bind(dupe, older)
      .all<{ id: string; merged_into_id: string; donation_count: number }>();
    expect(rows.results.map((r) => [r.merged_into_id, r.donation_count])).toEqual([
      [keep, 0],
      [keep, 0],
    ]);
    // Merged records leave the list; the totals do not double count.
    const list = await caller.donors.list({});
    expect(list.rows.map((r) => r.id)).toEqual([keep]);
    expect(list.totals?.lifetimeMinor).toBe(13_200);
    // The history of both sides records the merge.
    const audit = await testEnv.DB.prepare(
      "SELECT entity_id, action FROM audit_event WHERE organization_id = ? AND action LIKE 'donor.merge%' ORDER BY at",
    )
      .bind(org)
      .all<{ entity_id: string; action: string }>();
    expect(audit.results).toContainEqual({ entity_id: dupe, action: "donor.merged_into" });
    expect(audit.results).toContainEqual({ entity_id: keep, action: "donor.merge" });
  });

  it("refuses merging a donor into itself (also through an old id) and anonymized donors", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const a = await newDonor(caller, { lastName: "A", email: "a@example.test" });
    const b = await newDonor(caller, { lastName: "B" });
    const c = await newDonor(caller, { lastName: "C", email: "c@example.test" });
    expect(await codeOf(caller.donors.merge({ sourceId: a, targetId: a }))).toBe("BAD_REQUEST");
    await caller.donors.merge({ sourceId: b, targetId: a, dryRun: false });
    expect(await codeOf(caller.donors.merge({ sourceId: b, targetId: a }))).toBe("BAD_REQUEST");
    await caller.donors.anonymize({ id: c, confirm: "c@example.test" });
    expect(await codeOf(caller.donors.merge({ sourceId: c, targetId: a }))).toBe("UNPROCESSABLE_CONTENT");
    expect(await codeOf(caller.donors.merge({ sourceId: a, targetId: c, dryRun: false }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect((await caller.donors.byId({ id: a })).mergedIntoId).toBeNull();
  });
});

describe("anonymize", () => {
  it("needs the typed e-mail, keeps amounts, dates and campaigns, and leaves no personal data anywhere", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const secret = [
      "Zelda",
      "Quist",
      "Quistworks",
      "zelda@example.test",
      "+15550100",
      "12 Elm Row",
      "Springfield",
      "99501",
      "EXT-77",
    ];
    const id = await newDonor(caller, {
      firstName: "Zelda",
      lastName: "Quist",
      company: "Quistworks",
      email: "zelda@example.test",
      phone: "+15550100",
      addressLine1: "12 Elm Row",
      city: "Springfield",
      postalCode: "99501",
      externalId: "EXT-77",
      emailOptIn: true,
    });
    // A record merged into this donor carries personal data too.
    const alias = await newDonor(caller, { firstName: "Zelda", lastName: "Quist-Alias" });
    await caller.donors.update({
      id,
      data: {
        firstName: "Zelda",
        lastName: "Quist",
        company: "Quistworks",
        email: "zelda@example.test",
        phone: "+15550100",
        addressLine1: "12 Elm Row",
        city: "Springfield",
        postalCode: "99501",
        externalId: "EXT-77",
      },
    });
    const c = await caller.campaigns.create({ title: "Roof fund", currency: "USD", goalType: "none" });
    const donation = await gift(caller, id, 4_200, {
      campaignId: c.id,
      message: "From Zelda Quist with love",
      tributeType: "in_memory",
      tributeName: "Quist senior",
      internalNote: "Call Zelda on +15550100",
    });
    await gift(caller, alias, 800);
    await caller.donors.merge({ sourceId: alias, targetId: id, dryRun: false });
    await caller.donors.notes.create({
      donorId: id,
      body: "Zelda lives at 12 Elm Row",
      visibility: "shared",
    });
    const before = await caller.donors.byId({ id });
    // Searches for this donor, exported (and so audited), before the anonymization.
    expect(await exportCsv(caller, { q: "ZELDA@example.test" })).toContain("zelda@example.test");
    expect(await exportCsv(caller, { q: "quist" })).toContain("Quist");

    expect(await codeOf(caller.donors.anonymize({ id, confirm: "wrong@example.test" }))).toBe("BAD_REQUEST");
    expect((await caller.donors.byId({ id })).anonymized).toBe(false);
    await caller.donors.anonymize({ id, confirm: " ZELDA@example.test " });

    const after = await caller.donors.byId({ id });
    expect(after).toMatchObject({
      name: "Anonymized",
      anonymized: true,
      email: null,
      phone: null,
      emailOptIn: false,
      lifetimeMinor: before.lifetimeMinor,
      donationCount: before.donationCount,
      lastGiftAt: before.lastGiftAt,
    });
    expect(before.lifetimeMinor).toBe(5_000);
    const d = await caller.donations.byId({ id: (donation as { id: string }).id });
    expect(d).toMatchObject({
      amountMinor: 4_200,
      campaignId: c.id,
      message: null,
      tributeName: null,
      internalNote: null,
    });
    expect(await caller.donors.notes.list({ donorId: id })).toEqual([]);

    // Every row of the organization that could hold it: donors, notes, donations, audit values.
    const dump = JSON.stringify(
      await Promise.all(
        [
          "SELECT * FROM donor WHERE organization_id = ?",
          "SELECT * FROM donor_note WHERE organization_id = ?",
          "SELECT * FROM donation WHERE organization_id = ?",
          "SELECT before, after, reason FROM audit_event WHERE organization_id = ?",
        ].map(async (sql) => (await testEnv.DB.prepare(sql).bind(org).all()).results),
      ),
    );
    // Case-insensitive: a search typed in capitals is personal data too.
    for (const s of [...secret, "Quist-Alias", "Elm Row"])
      expect(dump.toLowerCase()).not.toContain(s.toLowerCase());
    // The audit rows stay (who did what, when), only their personal values went.
    const actions = await testEnv.DB.prepare(
      "SELECT action FROM audit_event WHERE organization_id = ? AND entity_id = ? ORDER BY at",
    )
      .bind(org, id)
      .all<{ action: string }>();
    expect(actions.results.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        "donor.create",
        "donor.update",
        "donor.merge",
        "note.create",
        "donor.anonymize",
      ]),
    );

    // Exports show "Anonymized" and nothing personal.
    const csv = await exportCsv(caller);
    expect(csv).toContain(`${id},Anonymized,individual,Anonymized,`);
    for (const s of secret) expect(csv).not.toContain(s);

    // Irreversible and final: no edits, notes, second anonymization or merges.
    expect(await codeOf(caller.donors.update({ id, data: { lastName: "Back" } }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect(await codeOf(caller.donors.notes.create({ donorId: id, body: "x" }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect(await codeOf(caller.donors.anonymize({ id, confirm: "Anonymized" }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    // No new gifts either: one would start a new record of the erased person.
    const gifts = async () =>
      (
        await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM donation WHERE donor_id = ?")
          .bind(id)
          .first<{ n: number }>()
      )?.n;
    const giftsBefore = await gifts();
    const refused = await caller.donations
      .create({
        donorId: id,
        campaignId: null,
        amountMinor: 1000,
        currency: "USD",
        paymentMethod: "cash",
        donatedAt: Date.now(),
      })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: "An anonymized donor cannot receive new donations",
    });
    expect(await gifts()).toBe(giftsBefore);
  });

  it("is for those who may delete donors; an organizer is refused", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const organizer = await member(org, "organizer", "organizer");
    const id = await newDonor(owner.caller, { lastName: "Kept", email: "kept@example.test" });
    expect(await codeOf(organizer.caller.donors.anonymize({ id, confirm: "kept@example.test" }))).toBe(
      "FORBIDDEN",
    );
    expect((await owner.caller.donors.byId({ id })).anonymized).toBe(false);
  });
});

describe("delete", () => {
  it("deletes a donor without completed gifts and refuses one with them, offering anonymize", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const pendingOnly = await newDonor(caller, { lastName: "Pending" });
    await gift(caller, pendingOnly, 1_000, { status: "pending" });
    expect(await codeOf(caller.donors.delete({ id: pendingOnly }))).toBe("OK");
    expect(await codeOf(caller.donors.byId({ id: pendingOnly }))).toBe("NOT_FOUND");

    const giver = await newDonor(caller, { lastName: "Giver" });
    await gift(caller, giver, 1_000);
    const e = await refusal(caller.donors.delete({ id: giver }));
    expect(e.code).toBe("UNPROCESSABLE_CONTENT");
    expect(e.message).toMatch(/Anonymize/);
    expect((e.cause as { details?: unknown }).details).toEqual({ allowed: ["anonymize"] });
    expect((await caller.donors.byId({ id: giver })).id).toBe(giver);
  });
});

describe("list filters", () => {
  it("filters by type, donor type, last gift days in the org's time zone, lifetime range and consent flags", async () => {
    const org = await makeOrg({ timeZone: "America/New_York" });
    const { caller } = await member(org, "owner");
    const jan = await newDonor(caller, { firstName: "Jan", lastName: "Uary", emailOptIn: true });
    const feb = await newDonor(caller, { company: "Feb Co", type: "organization", mailOptIn: true });
    const none = await newDonor(caller, { lastName: "Never", phoneOptIn: true });
    const monthly = await newDonor(caller, { lastName: "Monthly" });
    // 23:30 on 31 January in New York is already 1 February in UTC.
    const lateJan31 = startOfLocalDay("2026-01-31", "America/New_York") + 23.5 * 3600_000;
    await gift(caller, jan, 10_000, { donatedAt: lateJan31 });
    await gift(caller, jan, 5_000, { donatedAt: lateJan31 - 86400_000 });
    await gift(caller, feb, 50_000, { donatedAt: startOfLocalDay("2026-02-01", "America/New_York") });
    await gift(caller, monthly, 2_000, { frequency: "monthly", donatedAt: lateJan31 - 5 * 86400_000 });
    const ids = async (f: Parameters<Caller["donors"]["list"]>[0]) =>
      (await caller.donors.list(f)).rows.map((r) => r.id).sort();
    const sorted = (...xs: string[]) => xs.sort();

    expect(await ids({ lastGiftFrom: "2026-01-31", lastGiftTo: "2026-01-31" })).toEqual([jan]);
    expect(await ids({ lastGiftFrom: "2026-02-01" })).toEqual([feb]);
    expect(await ids({ lastGiftTo: "2026-01-31" })).toEqual(sorted(jan, monthly));
    expect(await ids({ type: "organization" })).toEqual([feb]);
    expect(await ids({ donorType: "new" })).toEqual([none]);
    expect(await ids({ donorType: "repeat" })).toEqual([jan]);
    expect(await ids({ donorType: "one_time" })).toEqual([feb]);
    expect(await ids({ donorType: "recurring" })).toEqual([monthly]);
    expect(await ids({ minLifetimeMinor: 2_000, maxLifetimeMinor: 15_000 })).toEqual(sorted(jan, monthly));
    expect(await ids({ minLifetimeMinor: 15_000 })).toEqual(sorted(jan, feb));
    expect(await ids({ emailOptIn: true })).toEqual([jan]);
    expect(await ids({ mailOptIn: true })).toEqual([feb]);
    expect(await ids({ phoneOptIn: true })).toEqual([none]);
    expect(await ids({ phoneOptIn: false, emailOptIn: false })).toEqual(sorted(feb, monthly));
    expect(await ids({ q: "feb" })).toEqual([feb]);
    expect((await caller.donors.list({ sort: "lifetime", desc: true })).rows.map((r) => r.id)).toEqual([
      feb,
      jan,
      monthly,
      none,
    ]);
    expect((await caller.donors.byId({ id: jan })).donorType).toBe("repeat");
  });

  it("refuses bad filters with 400 and field errors, never a 500", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const bad: unknown[] = [
      { lastGiftFrom: "31/01/2026" },
      { lastGiftFrom: "2026-02-02", lastGiftTo: "2026-02-01" },
      { minLifetimeMinor: 10, maxLifetimeMinor: 5 },
      { minLifetimeMinor: 1.5 },
      { donorType: "whale" },
      { sort: "email; DROP TABLE donor" },
      { organizationId: "org-x" },
      { pageSize: 7 },
    ];
    for (const input of bad) {
      const e = await refusal(caller.donors.list(input as never));
      expect(e.code, JSON.stringify(input)).toBe("BAD_REQUEST");
    }
    expect(await codeOf(caller.donors.exportPage({ lastGiftFrom: "2026-13-01" }))).toBe("BAD_REQUEST");
  });
});

describe("the donor's page", () => {
  it("lists the latest DONOR_PAGE_GIFTS gifts, newest first, trash left out; /donations lists them all", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const viewer = await member(org, "viewer");
    const donorId = await newDonor(caller, { firstName: "Many", lastName: "Gifts" });
    const base = Date.UTC(2026, 0, 1);
    // One more than the page lists, a day apart, the newest last; then the newest goes to the trash.
    const ids: string[] = [];
    for (let i = 0; i <= DONOR_PAGE_GIFTS + 1; i++)
      ids.push((await gift(caller, donorId, 1_000 + i, { donatedAt: base + i * 86_400_000 })).id);
    const trashed = ids.pop() as string;
    await caller.donations.delete({ id: trashed });
    const newestFirst = [...ids].reverse();
    for (const who of [caller, viewer.caller]) {
      const page = await who.donors.byId({ id: donorId });
      expect(page.donations.map((g) => g.id)).toEqual(newestFirst.slice(0, DONOR_PAGE_GIFTS));
      // The page's link: the list narrowed to the donor has every gift not in the trash.
      expect((await who.donations.list({ donorId })).total).toBe(DONOR_PAGE_GIFTS + 1);
    }
  });
});
