import { mappingProblem } from "@core/import/fields";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import {
  assignField,
  buildRejectedCsv,
  columnSamples,
  dateQuestion,
  decimalQuestion,
  rejectedFileName,
  sha256Hex,
  timeLeft,
  valuesOf,
} from "./logic";

describe("the import page's rules", () => {
  it("asks for what each kind needs mapped", () => {
    expect(mappingProblem("donations", ["amount", null])).toBe("Still needed: Date.");
    expect(mappingProblem("donations", [null, null])).toBe("Still needed: Amount and Date.");
    expect(mappingProblem("donations", ["amount", "donatedAt"])).toBeNull();
    expect(mappingProblem("donors", ["phone"])).toBe("Still needed: a name, a company or an e-mail.");
    expect(mappingProblem("donors", ["phone", "company"])).toBeNull();
  });

  it("moves a field to the column that takes it", () => {
    expect(assignField(["amount", null, "email"], 1, "amount")).toEqual([null, "amount", "email"]);
    expect(assignField(["amount", null, "email"], 2, null)).toEqual(["amount", null, null]);
  });

  it("samples distinct non-blank values of a column", () => {
    const rows = [
      { row: 2, cells: ["a", " "] },
      { row: 3, cells: ["a", "x"] },
      { row: 4, cells: ["b", "y"] },
      { row: 5, cells: ["c", "z"] },
      { row: 6, cells: ["d"] },
    ];
    expect(columnSamples(rows, 0)).toEqual(["a", "b", "c"]);
    expect(columnSamples(rows, 1, 2)).toEqual(["x", "y"]);
    expect(valuesOf(rows, [null, "donatedAt"], ["donatedAt"])).toEqual(["x", "y", "z"]);
  });

  it("asks for the day order only when the dates do not tell", () => {
    expect(dateQuestion(["03/04/2025", "05/06/2025"])).toEqual({ ask: true, why: "ambiguous" });
    expect(dateQuestion(["03/04/2025", "25/06/2025"])).toEqual({ ask: false, order: "dmy" });
    expect(dateQuestion(["03/04/2025", "06/25/2025"])).toEqual({ ask: false, order: "mdy" });
    expect(dateQuestion(["13/04/2025", "06/25/2025"])).toEqual({ ask: true, why: "disagree" });
    expect(dateQuestion(["2025-04-03", "2025-06-05"])).toEqual({ ask: false, order: "auto" });
    expect(dateQuestion(["Mar 4, 2025"])).toEqual({ ask: false, order: "auto" });
  });

  it("asks for the decimal mark only when the amounts do not tell", () => {
    expect(decimalQuestion(["25,50", "1.250,00"], 2)).toEqual({ ask: false, decimal: "," });
    expect(decimalQuestion(["$25.50", "1,250.00"], 2)).toEqual({ ask: false, decimal: "." });
    expect(decimalQuestion(["1.000", "2.500", "30"], 2)).toEqual({ ask: true });
    expect(decimalQuestion(["1,000"], 0)).toEqual({ ask: false, decimal: "auto" });
    expect(decimalQuestion(["25", "30"], 2)).toEqual({ ask: false, decimal: "auto" });
  });

  it("says the time left in words", () => {
    expect(timeLeft(null)).toBe("");
    expect(timeLeft(12.4)).toBe("about 12 s left");
    expect(timeLeft(150)).toBe("about 3 min left");
    expect(timeLeft(3900)).toBe("about 1 h 5 min left");
  });

  it("hashes the file's bytes", async () => {
    expect(await sha256Hex(new TextEncoder().encode("abc"))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("writes the refused rows in the file's columns, then Row and Reason, guarded against formulas", async () => {
    const pages = [
      {
        headers: ["Name", "Amount"],
        rows: [{ row: 3, reason: 'Amount: "x" is not an amount', cells: ["=HYPERLINK(1)", "x"] }],
        next: 3,
      },
      { headers: ["Name", "Amount"], rows: [{ row: 7, reason: "No date", cells: ["Bo"] }], next: null },
    ];
    const afters: number[] = [];
    const { parts, rows } = await buildRejectedCsv(async (after) => {
      afters.push(after);
      return pages[afters.length - 1] as (typeof pages)[number];
    });
    expect(afters).toEqual([0, 3]);
    expect(rows).toBe(2);
    const text = parts.join("");
    expect(text.startsWith("\uFEFF")).toBe(true);
    const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
    expect(parsed).toEqual([
      ["Name", "Amount", "Row", "Reason"],
      ["'=HYPERLINK(1)", "x", "3", 'Amount: "x" is not an amount'],
      ["Bo", "", "7", "No date"],
    ]);
    expect(rejectedFileName("Gifts 2024.CSV")).toBe("Gifts 2024-rejected.csv");
  });

  it("keeps every cell of a row refused for holding more cells than the header (issue 55)", async () => {
    const reason = "The row has 4 cells but the header has 2 (an unquoted separator in a value?)";
    const { parts } = await buildRejectedCsv(async (after) =>
      after === 0
        ? { headers: ["Name", "Amount"], rows: [{ row: 2, reason: "No date", cells: ["Bo", "5"] }], next: 2 }
        : {
            headers: ["Name", "Amount"],
            rows: [{ row: 4, reason, cells: ["Lee", " Kim", "1", "250.00"] }],
            next: null,
          },
    );
    const parsed = Papa.parse<string[]>(parts.join("").slice(1), { skipEmptyLines: true }).data;
    expect(parsed).toEqual([
      ["Name", "Amount", "Extra cell 1", "Extra cell 2", "Row", "Reason"],
      ["Bo", "5", "", "", "2", "No date"],
      ["Lee", " Kim", "1", "250.00", "4", reason],
    ]);
  });
});
