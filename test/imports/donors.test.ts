/**
 * Importing donors (issue 23): matching by e-mail, then name + postal code, then the file's donor
 * id; the three policies for a match (fill empty fields, overwrite, leave as is); a possible
 * duplicate inside the file reported against its first row; who may import.
 */
import { describe, expect, it } from "vitest";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { baseOptions, csv, runImport, sha256 } from "./run";

const FIELDS = {
  "Donor ID": "donorExternalId",
  Name: "name",
  Email: "email",
  Phone: "phone",
  City: "city",
  Zip: "postalCode",
  Country: "country",
  Newsletter: "emailOptIn",
} as const;
const HEADER = Object.keys(FIELDS);

async function donorsOf(org: string) {
  const { results } = await testEnv.DB.prepare(
    `SELECT first_name, last_name, email, phone, city, postal_code, country, email_opt_in, external_id, import_id
       FROM donor WHERE organization_id = ? ORDER BY last_name, first_name`,
  )
    .bind(org)
    .all<Record<string, unknown>>();
  return results;
}

describe("importing donors", () => {
  it("matches by e-mail, then name and postal code, then donor id, and fills only empty fields by default", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await caller.donors.create({
      data: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.test" },
    });
    await caller.donors.create({
      data: { firstName: "Alan", lastName: "Turing", postalCode: "SW1A 1AA", city: "London" },
    });
    await caller.donors.create({ data: { firstName: "Grace", lastName: "Hopper", externalId: "BL-7" } });
    const text = csv([
      HEADER,
      ["", "Ada Lovelace", "ADA@example.test", "+44 20 7946 0000", "Marylebone", "", "United Kingdom", "yes"],
      ["", "Turing, Alan", "", "", "Cambridge", "sw1a 1aa", "GB", "no"],
      ["BL-7", "Dr. Grace Hopper", "grace@example.test", "", "Arlington", "", "US", "yes"],
      ["", "Katherine Johnson", "kj@example.test", "", "Hampton", "23666", "US", "yes"],
      ["", "K. Johnson", "KJ@example.test", "757-555-0100", "", "", "", ""],
    ]);
    const { import: done } = await runImport(caller, "donors", text, { fields: FIELDS });
    expect(done.counts).toMatchObject({
      donorsCreated: 1,
      donorsUpdated: 3,
      donorsMatched: 1,
      rowsSkipped: 0,
      rowsInvalid: 0,
    });
    const rows = new Map((await donorsOf(org)).map((d) => [d.last_name, d]));
    // Ada: matched by e-mail (any case); her empty phone and country filled; consent left as it was.
    expect(rows.get("Lovelace")).toMatchObject({
      phone: "+44 20 7946 0000",
      city: "Marylebone",
      country: "GB",
      email_opt_in: 0,
    });
    // Alan: matched by name and postal code (case and spaces aside); his city kept, not overwritten.
    expect(rows.get("Turing")).toMatchObject({ city: "London", country: "GB" });
    // Grace: matched by the donor id; e-mail filled in.
    expect(rows.get("Hopper")).toMatchObject({
      email: "grace@example.test",
      first_name: "Grace",
      external_id: "BL-7",
    });
    // Katherine: new, with the import's id; her second row is the same donor (e-mail) and fills the phone.
    expect(rows.get("Johnson")).toMatchObject({
      email: "kj@example.test",
      phone: "757-555-0100",
      email_opt_in: 1,
      import_id: done.id,
    });
    expect(await donorsOf(org)).toHaveLength(4);
    // The list narrows to the donors the import created; the list of imports says who ran it.
    const created = await caller.donors.list({ importId: done.id });
    expect(created.rows.map((d) => d.email)).toEqual(["kj@example.test"]);
    const [listed] = await caller.imports.list({ kind: "donors" });
    expect(listed).toMatchObject({ id: done.id, createdByName: expect.any(String) });
  });

  it("overwrites with the file's values, or leaves matched donors as they are, as chosen", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "admin");
    await caller.donors.create({
      data: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.test", city: "London" },
    });
    const row = (city: string) =>
      csv([HEADER, ["", "Ada Lovelace", "ada@example.test", "", city, "", "", "yes"]]);
    const skip = await runImport(caller, "donors", row("Paris"), {
      fields: FIELDS,
      options: { matchPolicy: "skip" },
    });
    expect(skip.import.counts).toMatchObject({ rowsSkipped: 1, donorsUpdated: 0 });
    expect((await donorsOf(org))[0]).toMatchObject({ city: "London", email_opt_in: 0 });
    const over = await runImport(caller, "donors", row("Rome"), {
      fields: FIELDS,
      options: { matchPolicy: "overwrite" },
    });
    expect(over.import.counts).toMatchObject({ donorsUpdated: 1 });
    expect((await donorsOf(org))[0]).toMatchObject({ city: "Rome", email_opt_in: 1 });
  });

  it("reports a donor that appears twice in the file against its first row, across batches too", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const rows = [HEADER];
    for (let i = 0; i < 12; i++) rows.push(["", `Person ${i}`, `p${i}@example.test`, "", "", "", "", ""]);
    rows.push(["", "Person Three", "P3@example.test", "555", "", "", "", ""]);
    const text = csv(rows);
    const { readShape } = await import("@core/import/read");
    const shape = readShape(text, { sampleRows: 100 });
    const { CheckTally } = await import("@core/import/runner");
    const tally = new CheckTally("donors");
    const fileHash = await sha256(text);
    for (const part of [shape.sample.slice(0, 10), shape.sample.slice(10)]) {
      const check = await caller.imports.check({
        kind: "donors",
        fileHash,
        headers: shape.headers,
        mapping: shape.headers.map((h) => FIELDS[h as keyof typeof FIELDS] ?? null),
        options: baseOptions(),
        rows: part,
      });
      tally.add(check.rows);
    }
    // The dry run sees the later row as the same donor as row 5, though another batch created it.
    expect(tally.outcomes).toMatchObject({ new: 12, matched: 1 });
    expect(tally.notes).toEqual([{ row: 14, note: "Same donor as row 5", label: "Person Three" }]);
    const { import: done } = await runImport(caller, "donors", text, { fields: FIELDS, batchRows: 10 });
    // The later row is the same donor, and fills the phone the first row left empty.
    expect(done.counts).toMatchObject({ donorsCreated: 12, donorsUpdated: 1 });
    const donors = await donorsOf(org);
    expect(donors).toHaveLength(12);
    expect(donors.find((d) => d.email === "p3@example.test")).toMatchObject({ phone: "555" });
  });

  it("refuses rows without a name, company or e-mail, and keeps a donor known by e-mail alone", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const text = csv([
      HEADER,
      ["", "", "only@example.test", "", "", "", "", ""],
      ["", "", "", "555", "Oslo", "", "", ""],
    ]);
    const { import: done, rejected } = await runImport(caller, "donors", text, { fields: FIELDS });
    expect(done.counts).toMatchObject({ donorsCreated: 1, rowsInvalid: 1 });
    expect(rejected).toEqual([{ row: 3, reason: "No name, company or e-mail" }]);
    expect((await donorsOf(org))[0]).toMatchObject({
      email: "only@example.test",
      first_name: null,
      last_name: null,
    });
  });

  it("is for owners and organization admins: organizers and viewers neither import nor see imports", async () => {
    const org = await makeOrg();
    const owner = await member(org, "owner");
    const text = csv([HEADER, ["", "Ada Lovelace", "ada@example.test", "", "", "", "", ""]]);
    const { import: done } = await runImport(owner.caller, "donors", text, { fields: FIELDS });
    for (const role of ["organizer", "viewer"] as const) {
      const { caller } = await member(org, role);
      expect(await codeOf(caller.imports.list({})), role).toBe("FORBIDDEN");
      expect(await codeOf(caller.imports.byId({ id: done.id })), role).toBe("FORBIDDEN");
      expect(await codeOf(runImport(caller, "donors", text, { fields: FIELDS })), role).toBe("FORBIDDEN");
      expect(await codeOf(caller.imports.rollback({ id: done.id })), role).toBe("FORBIDDEN");
    }
    const admin = await member(org, "admin");
    expect((await admin.caller.imports.list({})).map((i) => i.id)).toEqual([done.id]);
    // Another organization's owner does not find it.
    const other = await member(await makeOrg(), "owner");
    expect(await codeOf(other.caller.imports.byId({ id: done.id }))).toBe("NOT_FOUND");
    expect(await codeOf(other.caller.imports.rollback({ id: done.id }))).toBe("NOT_FOUND");
  });
});
