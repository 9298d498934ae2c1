/**
 * The import screens say what happened (issue 55): a result with refused rows never reads as a
 * success, and the import button counts the rows the whole-file check will import, not the file's.
 */
import { describe, expect, it } from "vitest";
import { importButtonWords, resultWords } from "./outcome";
import { CheckTally } from "./runner";

describe("the result's headline", () => {
  it("is a success only when no row was refused", () => {
    expect(resultWords({ rowsSkipped: 0, rowsInvalid: 0 }, 48, "gifts.csv")).toEqual({
      level: "all",
      title: "All 48 rows of gifts.csv were imported",
    });
    expect(resultWords({ rowsSkipped: 2, rowsInvalid: 0 }, 48, "gifts.csv")).toEqual({
      level: "all",
      title: "46 of 48 rows of gifts.csv were imported; 2 skipped",
    });
  });

  it("says how many were refused, and calls most refused the failure it is", () => {
    expect(resultWords({ rowsSkipped: 0, rowsInvalid: 5 }, 48, "gifts.csv")).toEqual({
      level: "some",
      title: "5 of 48 rows of gifts.csv were refused; 43 imported",
    });
    // 38 of 48 (79 %) refused, as issue 55 found it under a green check.
    const most = resultWords({ rowsSkipped: 0, rowsInvalid: 38 }, 48, "gifts.csv");
    expect(most).toEqual({ level: "most", title: "38 of 48 rows of gifts.csv were refused; 10 imported" });
    expect(most.title).not.toMatch(/every row/i);
    expect(resultWords({ rowsSkipped: 0, rowsInvalid: 1 }, 1, "a.csv")).toEqual({
      level: "most",
      title: "Nothing was imported: the one row of a.csv was refused",
    });
    expect(resultWords({ rowsSkipped: 1, rowsInvalid: 1 }, 2, "a.csv").level).toBe("most");
  });
});

describe("the import button", () => {
  it("counts new and matched rows, and names the refused and skipped ones", () => {
    expect(importButtonWords({ new: 8, matched: 2, skipped: 0, invalid: 38 })).toEqual({
      rows: 10,
      label: "Import 10 rows (38 refused)",
    });
    expect(importButtonWords({ new: 1, matched: 0, skipped: 3, invalid: 0 })).toEqual({
      rows: 1,
      label: "Import 1 row (3 skipped)",
    });
    expect(importButtonWords({ new: 0, matched: 0, skipped: 1, invalid: 4 })).toEqual({
      rows: 0,
      label: "Nothing to import",
    });
  });
});

describe("the whole-file check's tally", () => {
  it("counts each existing donor once and lists the matches not made by e-mail", () => {
    const t = new CheckTally("donations");
    const existing = (id: string, matchedBy: "email" | "name_postal_code" | "external_id") => ({
      id,
      isNew: false,
      matchedBy,
      existing: { name: "Kim Lee" },
    });
    t.add([
      { row: 2, outcome: "new", donor: existing("d1", "email"), donorKeys: [] },
      { row: 3, outcome: "new", donor: existing("d1", "email"), donorKeys: [] },
      { row: 4, outcome: "new", label: "Kim Lee", donor: existing("d2", "name_postal_code"), donorKeys: [] },
      { row: 5, outcome: "new", donor: existing("d3", "external_id"), donorKeys: [] },
      { row: 6, outcome: "new", donor: { id: "n1", isNew: true }, donorKeys: ["e:a@x.test"] },
    ]);
    expect(t.existingDonors.size).toBe(3);
    expect(t.newDonors).toBe(1);
    expect(t.weakMatchCount).toBe(2);
    expect(t.weakMatches).toEqual([
      { row: 4, label: "Kim Lee", donorId: "d2", donorName: "Kim Lee", by: "name_postal_code" },
      { row: 5, label: null, donorId: "d3", donorName: "Kim Lee", by: "external_id" },
    ]);
  });
});
