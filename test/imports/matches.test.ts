/**
 * A migration that loses nothing (issue 55): a donations import counts the organization's donors
 * its gifts go to, in the dry run as in the import; the dry run names each row given to a donor by
 * name + postal code or old ID, and a row the user keeps apart gets a donor of its own.
 */
import { IMPORT_MAX_NEW_DONOR_ROWS } from "@core/import/fields";
import { readShape } from "@core/import/read";
import { CheckTally } from "@core/import/runner";
import { describe, expect, it } from "vitest";
import { newDonor } from "../donors/helpers";
import { makeOrg, member } from "../fixtures";
import { codeOf, testEnv } from "../helpers";
import { baseOptions, type Caller, csv, mappingFor, runImport, sha256 } from "./run";

const FIELDS = {
  Email: "email",
  First: "firstName",
  Last: "lastName",
  Postal: "postalCode",
  "Donor ID": "donorExternalId",
  Amount: "amount",
  Date: "donatedAt",
} as const;

/** Rosa by e-mail (twice), Kim by name + postal code, Olga by her old ID, Ana new. */
const TEXT = csv([
  Object.keys(FIELDS),
  ["rosa@example.test", "", "", "", "", "10.00", "2026-10-01"],
  ["", "Kim", "Lee", "ab1 2cd", "", "20.00", "2026-10-02"],
  ["", "Olga", "", "", "D-7", "30.00", "2026-10-03"],
  ["rosa@example.test", "", "", "", "", "40.00", "2026-10-04"],
  ["ana@example.test", "Ana", "Lima", "", "", "50.00", "2026-10-05"],
]);

async function orgWithDonors() {
  const org = await makeOrg();
  const { caller } = await member(org, "owner");
  const ids = {
    rosa: await newDonor(caller, { firstName: "Rosa", lastName: "Delgado", email: "rosa@example.test" }),
    kim: await newDonor(caller, { firstName: "Kim", lastName: "Lee", postalCode: "AB1 2CD" }),
    olga: await newDonor(caller, { firstName: "Olga", lastName: "Berg", externalId: "D-7" }),
  };
  return { org, caller, ids };
}

async function dryRun(caller: Caller, newDonorRows?: number[]) {
  const shape = readShape(TEXT);
  return caller.imports.check({
    kind: "donations",
    fileHash: await sha256(TEXT),
    headers: shape.headers,
    mapping: mappingFor(shape.headers, FIELDS),
    options: baseOptions(newDonorRows ? { newDonorRows } : {}),
    rows: shape.sample,
  });
}

const giftsOf = (org: string, donor: string) =>
  testEnv.DB.prepare("SELECT count(*) AS n FROM donation WHERE organization_id = ? AND donor_id = ?")
    .bind(org, donor)
    .first<{ n: number }>()
    .then((r) => r?.n);

describe("a donations import's matches", () => {
  it("are counted in the dry run as in the import: each donor of the organization's once", async () => {
    const { caller } = await orgWithDonors();
    const check = await dryRun(caller);
    expect(check.counts).toMatchObject({ giftsCreated: 5, donorsCreated: 1, donorsMatched: 3 });
    const run = await runImport(caller, "donations", TEXT, { fields: FIELDS, batchRows: 2 });
    expect(run.import.counts).toMatchObject({ giftsCreated: 5, donorsCreated: 1, donorsMatched: 3 });
  });

  it("not made by e-mail are listed by the dry run: the row, the donor it goes to, and by what", async () => {
    const { caller, ids } = await orgWithDonors();
    const check = await dryRun(caller);
    const tally = new CheckTally("donations");
    tally.add(check.rows);
    expect(tally.existingDonors).toEqual(new Set([ids.rosa, ids.kim, ids.olga]));
    expect(tally.weakMatchCount).toBe(2);
    expect(tally.weakMatches).toEqual([
      { row: 3, label: "Kim Lee", donorId: ids.kim, donorName: "Kim Lee", by: "name_postal_code" },
      { row: 4, label: "Olga", donorId: ids.olga, donorName: "Olga Berg", by: "external_id" },
    ]);
  });

  it("the user refuses give the row a donor of its own, in the dry run and in the import", async () => {
    const { org, caller, ids } = await orgWithDonors();
    const check = await dryRun(caller, [3]);
    expect(check.counts).toMatchObject({ donorsCreated: 2, donorsMatched: 2 });
    expect(check.rows.find((r) => r.row === 3)?.donor).toMatchObject({ isNew: true });
    const run = await runImport(caller, "donations", TEXT, {
      fields: FIELDS,
      options: { newDonorRows: [3] },
    });
    expect(run.import.counts).toMatchObject({ giftsCreated: 5, donorsCreated: 2, donorsMatched: 2 });
    expect(await giftsOf(org, ids.kim)).toBe(0);
    expect(await giftsOf(org, ids.olga)).toBe(1);
    const kims = await caller.donors.list({ q: "Kim" });
    expect(kims.total).toBe(2);
  });

  it("kept apart are refused past their limit with a clear 400, never a 500", async () => {
    const { caller } = await orgWithDonors();
    const many = Array.from({ length: IMPORT_MAX_NEW_DONOR_ROWS + 1 }, (_, i) => i + 2);
    expect(await codeOf(dryRun(caller, many))).toBe("BAD_REQUEST");
    expect(await codeOf(dryRun(caller, [0]))).toBe("BAD_REQUEST");
  });
});
