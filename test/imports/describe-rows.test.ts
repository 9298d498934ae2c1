/**
 * The import screens describe rows well (issue 53, M12): a refused row is named by its cells, a
 * donations import counts the existing donors it gave gifts to, and a donor's "Donor since" is the
 * old system's "Date Added" or their first gift, not the day of the import.
 */
import { autoMap } from "@core/import/mapping";
import { rowLabel } from "@core/import/row";
import { describe, expect, it } from "vitest";
import { newDonor } from "../donors/helpers";
import { makeOrg, member } from "../fixtures";
import { baseOptions, csv, mappingFor, runImport, sha256 } from "./run";

describe("refused rows", () => {
  it("are named by what their cells say: the name, the first and last name, the company, the e-mail", async () => {
    expect(rowLabel({ firstName: " Sofia ", lastName: "Rossi", email: "not-an-address" })).toBe(
      "Sofia Rossi",
    );
    expect(rowLabel({ name: "Ana Lima" })).toBe("Ana Lima");
    expect(rowLabel({ company: "Rotary Club" })).toBe("Rotary Club");
    expect(rowLabel({ email: "x@example.test", amount: "5" })).toBe("x@example.test");
    expect(rowLabel({ amount: "5" })).toBeNull();

    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const text = csv([
      ["First Name", "Last Name", "Email"],
      ["Ana", "Lima", "ana@example.test"],
      ["Sofia", "Rossi", "not-an-address"],
    ]);
    const headers = ["First Name", "Last Name", "Email"];
    const answer = await caller.imports.check({
      kind: "donors",
      fileHash: await sha256(text),
      headers,
      mapping: mappingFor(headers, { "First Name": "firstName", "Last Name": "lastName", Email: "email" }),
      options: baseOptions(),
      rows: [
        { row: 2, cells: ["Ana", "Lima", "ana@example.test"] },
        { row: 3, cells: ["Sofia", "Rossi", "not-an-address"] },
      ],
    });
    expect(answer.rows.map((r) => [r.row, r.outcome, r.label, r.stored === null])).toEqual([
      [2, "new", "Ana Lima", false],
      [3, "invalid", "Sofia Rossi", true],
    ]);
  });
});

describe("a row with more cells than the header", () => {
  it("is refused and kept with every cell it had, for the refused-rows download (issue 55)", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const text =
      "Email,Amount,Date\r\nana@example.test,1,250.00,2026-10-01\r\nbo@example.test,5,2026-10-02\r\n";
    const run = await runImport(caller, "donations", text, {
      fields: { Email: "email", Amount: "amount", Date: "donatedAt" },
    });
    expect(run.import.counts).toMatchObject({ giftsCreated: 1, rowsInvalid: 1 });
    const refused = await caller.imports.rejections({ id: run.import.id });
    expect(refused.rows).toEqual([
      {
        row: 2,
        reason: "The row has 4 cells but the header has 3 (an unquoted separator in a value?)",
        cells: ["ana@example.test", "1", "250.00", "2026-10-01"],
      },
    ]);
  });
});

describe("a donations import's donors", () => {
  it("counts the existing donors it gave gifts to, once each however many batches name them", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    await newDonor(caller, { firstName: "Rosa", lastName: "Delgado", email: "rosa@example.test" });
    await newDonor(caller, { firstName: "Kim", lastName: "Lee", email: "kim@example.test" });
    const text = csv([
      ["Email", "Amount", "Date"],
      ["rosa@example.test", "10.00", "2026-10-01"],
      ["kim@example.test", "20.00", "2026-10-02"],
      ["rosa@example.test", "30.00", "2026-10-03"],
      ["new@example.test", "40.00", "2026-10-04"],
      ["new@example.test", "50.00", "2026-10-05"],
    ]);
    // A batch a row: every later row of Rosa's and of the new donor comes in a batch of its own.
    const run = await runImport(caller, "donations", text, {
      fields: { Email: "email", Amount: "amount", Date: "donatedAt" },
      batchRows: 1,
    });
    expect(run.import.counts).toMatchObject({ giftsCreated: 5, donorsCreated: 1, donorsMatched: 2 });
  });
});

describe("donor since", () => {
  it("maps a Date Added column by itself, and never a processor's payment date", () => {
    expect(autoMap("donors", ["Name", "Email", "Date Added"])).toEqual(["name", "email", "donorSince"]);
    expect(autoMap("donors", ["Name", "Donor Since"])).toEqual(["name", "donorSince"]);
    expect(autoMap("donations", ["Customer Email", "Amount", "Created (UTC)"])).toEqual([
      "email",
      "amount",
      "donatedAt",
    ]);
  });

  it("is the old system's date added for an imported donor, in the import's zone, and moves back only", async () => {
    const org = await makeOrg({ timeZone: "America/New_York" });
    const { caller } = await member(org, "owner");
    const known = await newDonor(caller, { firstName: "Kim", lastName: "Lee", email: "kim@example.test" });
    const text = csv([
      ["Name", "Email", "Date Added"],
      ["Ana Lima", "ana@example.test", "2015-03-04"],
      ["Kim Lee", "kim@example.test", "2012-06-01"],
      ["Sofia Rossi", "sofia@example.test", "2999-01-01"],
      ["Bo Berg", "bo@example.test", "soon"],
    ]);
    const run = await runImport(caller, "donors", text, {
      fields: { Name: "name", Email: "email", "Date Added": "donorSince" },
      options: { timeZone: "America/New_York", dateOrder: "ymd" },
    });
    expect(run.import.counts).toMatchObject({ donorsCreated: 1, donorsUpdated: 1, rowsInvalid: 2 });
    expect(run.rejected.map((r) => [r.row, r.reason])).toEqual([
      [4, "Donor since cannot be in the future"],
      [5, 'Donor since: "soon" is not a date'],
    ]);
    const list = await caller.donors.list({ q: "ana@example.test" });
    const ana = await caller.donors.byId({ id: list.rows[0]?.id as string });
    // Noon of 4 March 2015 in New York, as the import keeps a date without a time on its day.
    expect(ana.donorSince).toBe(Date.UTC(2015, 2, 4, 17));
    expect((await caller.donors.byId({ id: known })).donorSince).toBe(Date.UTC(2012, 5, 1, 16));
    // A later date added never moves a donor's creation forward.
    const later = csv([
      ["Email", "Date Added"],
      ["kim@example.test", "2020-01-01"],
    ]);
    await runImport(caller, "donors", later, {
      fields: { Email: "email", "Date Added": "donorSince" },
      options: { timeZone: "America/New_York", dateOrder: "ymd", matchPolicy: "overwrite" },
    });
    expect((await caller.donors.byId({ id: known })).donorSince).toBe(Date.UTC(2012, 5, 1, 16));
  });

  it("is the first gift's date for a donor a donations import creates, not the import's day", async () => {
    const org = await makeOrg();
    const { caller } = await member(org, "owner");
    const text = csv([
      ["Name", "Email", "Amount", "Date"],
      ["Lena Park", "lena@example.test", "25.00", "2019-05-06"],
      ["Lena Park", "lena@example.test", "25.00", "2018-02-03"],
    ]);
    await runImport(caller, "donations", text, {
      fields: { Name: "name", Email: "email", Amount: "amount", Date: "donatedAt" },
    });
    const list = await caller.donors.list({ q: "lena@example.test" });
    const lena = await caller.donors.byId({ id: list.rows[0]?.id as string });
    expect(lena.donorSince).toBe(Date.UTC(2018, 1, 3, 12));
    expect(lena.createdAt).toBeGreaterThan(lena.donorSince);
  });
});
