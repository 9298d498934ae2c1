/**
 * Files as they come out of other systems (issue 23): each encoding decodes to the same text, each
 * separator is found, quoted fields keep their line breaks and quotes, rows are numbered as a
 * spreadsheet numbers them, and broken rows carry why they cannot be read.
 */
import { describe, expect, it } from "vitest";
import {
  AMBIGUOUS_DATES,
  BROKEN,
  DONORBOX_GERMAN_NO_HEADER,
  EUROPEAN,
  TABBED,
  US_QUOTED,
  utf8,
  utf16,
  windows1252,
} from "../../test/fixtures/imports/awkward";
import { decodeBytes, detectEncoding } from "./encoding";
import { countRows, readShape, rowBatches } from "./read";
import { detectDateOrder, detectDecimal } from "./values";

const decoded = (bytes: Uint8Array) => decodeBytes(bytes, detectEncoding(bytes));

describe("encodings", () => {
  it("reads UTF-8 with and without a BOM, UTF-16 both ways, and Windows-1252", () => {
    const text = "Name;Betrag\nJürgen Müller;1.234,56 €\n“Zoë” Straße;12,50\n";
    expect(detectEncoding(utf8(text, true))).toBe("utf-8");
    expect(detectEncoding(utf8(text))).toBe("utf-8");
    expect(detectEncoding(utf16(text, "le"))).toBe("utf-16le");
    expect(detectEncoding(utf16(text, "be"))).toBe("utf-16be");
    expect(detectEncoding(utf16(text, "le", false))).toBe("utf-16le");
    expect(detectEncoding(utf16(text, "be", false))).toBe("utf-16be");
    expect(detectEncoding(windows1252(text))).toBe("windows-1252");
    for (const bytes of [
      utf8(text, true),
      utf8(text),
      utf16(text, "le"),
      utf16(text, "be"),
      windows1252(text),
    ])
      expect(decoded(bytes)).toBe(text);
  });

  it("does not take UTF-8 cut in the middle of a character for Windows-1252", () => {
    const long = `${"a".repeat(64 * 1024 - 1)}é and more`;
    expect(detectEncoding(utf8(long))).toBe("utf-8");
  });
});

async function allRows(text: string, delimiter = readShape(text).delimiter, size = 2) {
  const shape = readShape(text, { delimiter });
  const out = [];
  for await (const batch of rowBatches(text, { delimiter, size, columns: shape.headers.length }))
    out.push(...batch);
  return out;
}

describe("separators and quoting", () => {
  it("finds semicolons and keeps a quoted separator inside its cell", async () => {
    const shape = readShape(EUROPEAN);
    expect(shape.delimiter).toBe(";");
    expect(shape.headers).toEqual(["Name", "E-Mail", "Betrag", "Währung", "Datum"]);
    expect((await allRows(EUROPEAN)).map((r) => r.cells[0])).toEqual(["Müller; Jürgen", "Zoë Smith"]);
    expect(detectDecimal(["1.234,56", "12,50"])).toBe(",");
    expect(detectDateOrder(["31.01.2025", "02.02.2025"])).toEqual({ order: "dmy", ambiguous: false });
  });

  it("keeps line breaks and doubled quotes in a quoted cell, and numbers rows by record", async () => {
    const rows = await allRows(US_QUOTED);
    expect(rows.map((r) => r.row)).toEqual([2, 3]);
    expect(rows[0]?.cells).toEqual([
      "O'Brien, Pat",
      "pat@example.com",
      "$1,000.00",
      "01/31/2025",
      'He said "thanks"\nand then\nleft',
    ]);
    expect(countRows(US_QUOTED, ",")).toBe(2);
  });

  it("reads tab-separated UTF-16 as Excel writes it", async () => {
    const text = decoded(utf16(TABBED, "le"));
    expect(readShape(text).delimiter).toBe("\t");
    expect((await allRows(text))[0]?.cells).toEqual(["Anna Åberg", "anna@example.se", "250", "2025-03-04"]);
  });

  it("hands rows on in batches from any row, holding one batch at a time", async () => {
    const lines = ["Email,Amount", ...Array.from({ length: 25 }, (_, i) => `p${i}@example.com,${i + 1}`)];
    const text = lines.join("\n");
    const sizes: number[] = [];
    const seen: number[] = [];
    for await (const b of rowBatches(text, { delimiter: ",", size: 10, from: 7, columns: 2 })) {
      sizes.push(b.length);
      seen.push(...b.map((r) => r.row));
    }
    expect(sizes).toEqual([10, 10]);
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i + 7));
  });
});

describe("dates the file cannot decide, and broken rows", () => {
  it("says when the day order cannot be told", () => {
    const rows = readShape(AMBIGUOUS_DATES).sample.map((r) => r.cells[2] as string);
    expect(detectDateOrder(rows)).toEqual({ order: null, ambiguous: true });
  });

  it("marks a row with a cell too many and an unclosed quote with the reason", async () => {
    const rows = await allRows(BROKEN, ",");
    expect(rows.map((r) => [r.row, r.problem ?? null])).toEqual([
      [2, null],
      [3, "The row has 4 cells but the header has 3 (an unquoted separator in a value?)"],
      [4, 'A quoted cell is never closed (a missing " in the file)'],
    ]);
    // The refused row keeps the cell too many, for the refused-rows download (issue 55).
    expect(rows[1]?.cells).toEqual(["extra@example.com", "1", "000", "2025-01-03"]);
  });
});

describe("a file without a header row (issue 55)", () => {
  const text = decoded(windows1252(DONORBOX_GERMAN_NO_HEADER));

  it("names the columns by position and numbers the rows from 1, as the file does", async () => {
    const shape = readShape(text, { firstRowIsData: true });
    expect(shape.delimiter).toBe(";");
    expect(shape.headers).toEqual([
      "Column 1",
      "Column 2",
      "Column 3",
      "Column 4",
      "Column 5",
      "Column 6",
      "Column 7",
    ]);
    expect(shape.sample.map((r) => [r.row, r.cells[0]])).toEqual([
      [1, "Jürgen Müller"],
      [2, "Zoë Straße"],
      [3, "Anna Schmidt"],
      [4, "Max Weber"],
      [5, "Jürgen Müller"],
    ]);
    expect(countRows(text, ";", true)).toBe(5);
    expect(countRows(text, ";")).toBe(4);
    const rows: number[] = [];
    for await (const b of rowBatches(text, { delimiter: ";", size: 2, columns: 7, firstRowIsData: true }))
      rows.push(...b.map((r) => r.row));
    expect(rows).toEqual([1, 2, 3, 4, 5]);
    const resumed: number[] = [];
    const o = { delimiter: ";" as const, size: 2, columns: 7, firstRowIsData: true, from: 3 };
    for await (const b of rowBatches(text, o)) resumed.push(...b.map((r) => r.row));
    expect(resumed).toEqual([3, 4, 5]);
  });

  it("still reads a file with a header as before", () => {
    expect(readShape(text).headers[0]).toBe("Jürgen Müller");
    expect(readShape(text).sample[0]?.row).toBe(2);
  });
});
