/**
 * A merge keeps the second e-mail and phone as the kept donor's other ones (issue 53, M8; decision
 * 052), and everything that finds donors by e-mail finds them by those too: the duplicate check,
 * an edit, the import, the database's own rule. The preview tells two namesakes apart.
 */
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { csv, runImport } from "../imports/run";
import { type Caller, gift, newDonor, refusal } from "./helpers";

async function twoRosas(caller: Caller) {
  const keep = await newDonor(caller, {
    firstName: "Rosa",
    lastName: "Delgado",
    email: "rosa@example.org",
    phone: "+1 503 555 0100",
  });
  const dupe = await newDonor(caller, {
    firstName: "Rosa",
    lastName: "Delgado",
    email: "Rosa.D@example.net",
    phone: "+1 503 555 0199",
  });
  await gift(caller, keep, 10_000);
  await gift(caller, keep, 2_000);
  await gift(caller, dupe, 5_000);
  return { keep, dupe };
}

describe("merging keeps the second e-mail and phone", () => {
  it("keeps them as the kept donor's other ones, says so in the preview and the history", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "organizer");
    const { keep, dupe } = await twoRosas(caller);
    const preview = await caller.donors.merge({ sourceId: dupe, targetId: keep });
    // Two "Rosa Delgado"s: told apart by e-mail, donor since and gifts.
    expect(preview).toMatchObject({
      target: { id: keep, name: "Rosa Delgado", email: "rosa@example.org", donationCount: 2 },
      source: { id: dupe, name: "Rosa Delgado", email: "rosa.d@example.net", donationCount: 1 },
      email: null,
      alternateEmail: "rosa.d@example.net",
      phone: null,
      alternatePhone: "+1 503 555 0199",
    });
    expect(typeof preview.target.donorSince).toBe("number");
    const done = await caller.donors.merge({ sourceId: dupe, targetId: keep, dryRun: false });
    expect({ ...done, dryRun: true }).toEqual(preview);
    const kept = await caller.donors.byId({ id: keep });
    expect(kept).toMatchObject({
      email: "rosa@example.org",
      phone: "+1 503 555 0100",
      otherEmails: ["rosa.d@example.net"],
      otherPhones: ["+1 503 555 0199"],
    });
    const [merge] = (await caller.audit.list({ entityType: "donor", entityId: keep })).rows;
    expect(merge?.sentence).toBe(
      "Merged Rosa Delgado into this donor: 1 donation, 0 notes and 0 tags moved; rosa.d@example.net kept as another e-mail",
    );
  });

  it("gives the kept donor the e-mail and phone it lacks, and carries the other ones of a chain of merges", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const first = await newDonor(caller, { lastName: "Okafor", email: "ada@one.test" });
    const second = await newDonor(caller, { lastName: "Okafor", email: "ada@two.test" });
    const bare = await newDonor(caller, { firstName: "Ada", lastName: "Okafor" });
    await caller.donors.merge({ sourceId: second, targetId: first, dryRun: false });
    const preview = await caller.donors.merge({ sourceId: first, targetId: bare });
    expect(preview).toMatchObject({ email: "ada@one.test", alternateEmail: null });
    await caller.donors.merge({ sourceId: first, targetId: bare, dryRun: false });
    expect(await caller.donors.byId({ id: bare })).toMatchObject({
      email: "ada@one.test",
      otherEmails: ["ada@two.test"],
    });
  });

  it("finds the donor by another e-mail: the duplicate check, an edit, both imports", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const { keep, dupe } = await twoRosas(caller);
    await caller.donors.merge({ sourceId: dupe, targetId: keep, dryRun: false });
    // Creating a donor under the old address answers with the donor who has it.
    expect(
      await caller.donors.create({
        data: { firstName: "R.", lastName: "Delgado", email: "ROSA.D@example.net" },
      }),
    ).toEqual({ created: false, duplicate: { id: keep, reason: "email" } });
    // Another donor cannot take it.
    const other = await newDonor(caller, { lastName: "Other" });
    const taken = await refusal(
      caller.donors.update({ id: other, data: { lastName: "Other", email: "rosa.d@example.net" } }),
    );
    expect([taken.code, taken.message]).toEqual(["CONFLICT", "Another donor already has this e-mail"]);
    // A donations import under the old address gives the gift to Rosa, creating no donor.
    const gifts = csv([
      ["Email", "Amount", "Date"],
      ["rosa.d@example.net", "40.00", "2026-11-02"],
    ]);
    const g = await runImport(caller, "donations", gifts, {
      fields: { Email: "email", Amount: "amount", Date: "donatedAt" },
    });
    expect(g.import.counts).toMatchObject({ giftsCreated: 1, donorsCreated: 0, donorsMatched: 1 });
    expect((await caller.donors.byId({ id: keep })).donationCount).toBe(4);
    // A donors import under the old address matches her, and overwriting does not swap her main
    // address for the old one.
    const people = csv([
      ["Email", "City"],
      ["rosa.d@example.net", "Portland"],
    ]);
    const p = await runImport(caller, "donors", people, {
      fields: { Email: "email", City: "city" },
      options: { matchPolicy: "overwrite" },
    });
    expect(p.import.counts).toMatchObject({ donorsCreated: 0, donorsUpdated: 1 });
    expect(await caller.donors.byId({ id: keep })).toMatchObject({
      email: "rosa@example.org",
      city: "Portland",
      otherEmails: ["rosa.d@example.net"],
    });
  });

  it("makes another address the main one on an edit, and anonymizing removes them all", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const { keep, dupe } = await twoRosas(caller);
    await caller.donors.merge({ sourceId: dupe, targetId: keep, dryRun: false });
    await caller.donors.update({
      id: keep,
      data: { firstName: "Rosa", lastName: "Delgado", email: "rosa.d@example.net", phone: "+1 503 555 0100" },
    });
    expect(await caller.donors.byId({ id: keep })).toMatchObject({
      email: "rosa.d@example.net",
      otherEmails: [],
      otherPhones: ["+1 503 555 0199"],
    });
    await caller.donors.anonymize({ id: keep, confirm: "rosa.d@example.net" });
    const left = await testEnv.DB.prepare("SELECT count(*) AS n FROM donor_contact WHERE organization_id = ?")
      .bind(org)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("holds one address to one donor in the database itself, whichever table asks", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const { keep, dupe } = await twoRosas(caller);
    await caller.donors.merge({ sourceId: dupe, targetId: keep, dryRun: false });
    const now = Date.now();
    // A donor written past the service's check (a race) with another donor's other address.
    await expect(
      testEnv.DB.prepare(
        "INSERT INTO donor (id, organization_id, last_name, email, created_at, updated_at) VALUES (?, ?, 'Race', 'rosa.d@example.net', ?, ?)",
      )
        .bind(`${org}-race`, org, now, now)
        .run(),
    ).rejects.toThrow(/UNIQUE constraint failed: donor/);
    // And another address that is a donor's main one.
    await expect(
      testEnv.DB.prepare(
        "INSERT INTO donor_contact (organization_id, donor_id, kind, value, created_at) VALUES (?, ?, 'email', 'rosa@example.org', ?)",
      )
        .bind(org, dupe, now)
        .run(),
    ).rejects.toThrow(/UNIQUE constraint failed: donor/);
    // Another organization's donor may use the same address.
    const elsewhere = await makeOrg();
    const { caller: theirs } = await member(elsewhere, "owner");
    expect(
      (await theirs.donors.create({ data: { lastName: "D", email: "rosa.d@example.net" } })).created,
    ).toBe(true);
  });

  it("merges as an owner, admin or organizer; a viewer is refused", async () => {
    const org = await makeOrg();
    const { caller: owner } = await member(org, "owner");
    for (const role of ["owner", "admin", "organizer"] as const) {
      const { caller } = await member(org, role);
      const a = await newDonor(owner, { lastName: `A ${role}`, email: `a-${role}@example.test` });
      const b = await newDonor(owner, { lastName: `B ${role}`, email: `b-${role}@example.test` });
      await caller.donors.merge({ sourceId: b, targetId: a, dryRun: false });
      expect((await owner.donors.byId({ id: a })).otherEmails, role).toEqual([`b-${role}@example.test`]);
    }
    const { caller: viewer } = await member(org, "viewer");
    const a = await newDonor(owner, { lastName: "A viewer" });
    const b = await newDonor(owner, { lastName: "B viewer" });
    expect(await codeOf(viewer.donors.merge({ sourceId: b, targetId: a }))).toBe("FORBIDDEN");
  });
});
