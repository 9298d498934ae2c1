import {
  archiveFileName,
  CSV_BOM,
  csvCell,
  csvRow,
  exportFileName,
  isoWithOffset,
  PLATFORM_EXPORT_OWNER,
} from "@core/csv";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { chunk, listInput, sortColumn } from "../../worker/lib/list";

describe("csv", () => {
  it("quotes per RFC 4180 and defuses formula cells", () => {
    expect(csvCell('He said "hi", then left')).toBe('"He said ""hi"", then left"');
    expect(csvCell("line\r\nbreak")).toBe('"line\r\nbreak"');
    for (const lead of ["=", "+", "-", "@", "\t", "\r", "\0"])
      expect(csvCell(`${lead}1+1`).startsWith("'") || csvCell(`${lead}1+1`).startsWith(`"'`)).toBe(true);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(null)).toBe("");
    expect(csvCell(0)).toBe("0");
    expect(csvRow(["a", 1, null])).toBe("a,1,\r\n");
    expect(CSV_BOM).toBe("\uFEFF");
  });

  it("neutralises every formula (OWASP CSV injection) and leaves numbers and phone numbers as they are", () => {
    // Formulas: the ' makes a spreadsheet show them as text.
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell("+SUM(1)")).toBe("'+SUM(1)");
    expect(csvCell("-1+2")).toBe("'-1+2");
    expect(csvCell("@cmd")).toBe("'@cmd");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe(`"'\rx"`);
    expect(csvCell("-2+3+cmd|' /C calc'!A0")).toBe("'-2+3+cmd|' /C calc'!A0");
    expect(csvCell("+1 Plaza")).toBe("'+1 Plaza");
    expect(csvCell("-")).toBe("'-");
    // Data: a refund's negative amount, a phone number, a number.
    expect(csvCell("-29.30")).toBe("-29.30");
    expect(csvCell(-29.3)).toBe("-29.3");
    expect(csvCell("+1 503 555 0100")).toBe("+1 503 555 0100");
    expect(csvCell("+44 (20) 7946-0958")).toBe("+44 (20) 7946-0958");
    expect(csvCell("+1.503.555.0100")).toBe("+1.503.555.0100");
    expect(csvCell(-1e-7)).toBe("-1e-7");
  });

  it("names every export file <org>-<what>-<yyyymmdd-hhmm>.csv, the minute in the organization's zone", () => {
    const t = Date.UTC(2026, 2, 1, 8, 30, 59);
    expect(exportFileName("hope-shelter", "donations", t, "Europe/Berlin")).toBe(
      "hope-shelter-donations-20260301-0930.csv",
    );
    expect(exportFileName("hope-shelter", "donors", t)).toBe("hope-shelter-donors-20260301-0830.csv");
    // The day is the zone's: 08:30 UTC is still 28 February in Honolulu.
    expect(exportFileName("hope-shelter", "donors", t, "Pacific/Honolulu")).toBe(
      "hope-shelter-donors-20260228-2230.csv",
    );
    // Safe in a Content-Disposition header whatever it is given.
    expect(exportFileName(PLATFORM_EXPORT_OWNER, 'organizer-AbC_12"\r\n', t)).toBe(
      "almoner-organizer-abc-12-20260301-0830.csv",
    );
  });

  it("names the organization's archive <org>-<yyyy-mm-dd>.zip, the day in the organization's zone", () => {
    const t = Date.UTC(2026, 2, 1, 8, 30, 59);
    expect(archiveFileName("hope-shelter", t)).toBe("hope-shelter-2026-03-01.zip");
    expect(archiveFileName("hope-shelter", t, "Pacific/Honolulu")).toBe("hope-shelter-2026-02-28.zip");
    expect(archiveFileName('Hope "Shelter"\r\n', t)).toBe("hope-shelter-2026-03-01.zip");
  });

  it("writes ISO dates with the time zone's offset", () => {
    const t = Date.UTC(2026, 0, 15, 12, 0, 0);
    expect(isoWithOffset(t, "UTC")).toBe("2026-01-15T12:00:00+00:00");
    expect(isoWithOffset(t, "America/New_York")).toBe("2026-01-15T07:00:00-05:00");
    expect(isoWithOffset(Date.UTC(2026, 6, 1, 0, 0, 0), "Asia/Kolkata")).toBe("2026-07-01T05:30:00+05:30");
    expect(isoWithOffset(null)).toBe("");
  });
});

describe("list input", () => {
  const input = listInput({
    sorts: { created: "created_at", name: "lower(name)" },
    defaultSort: "created",
    filters: { status: z.array(z.enum(["a", "b"])).optional() },
  });
  it("defaults to 25 rows, page 1 and the default sort; whitelists sorts and page sizes", () => {
    expect(input.parse({})).toEqual({ page: 1, pageSize: 25, desc: true, sort: "created" });
    expect(input.safeParse({ sort: "password" }).success).toBe(false);
    expect(input.safeParse({ pageSize: 30 }).success).toBe(false);
    expect(input.safeParse({ pageSize: 100 }).success).toBe(true);
    expect(input.safeParse({ organizationId: "x" }).success).toBe(false);
    expect(sortColumn({ name: "lower(name)" }, "name")).toBe("lower(name)");
  });
  it("chunks bulk values under D1's 100 bound parameters", () => {
    const parts = chunk(Array.from({ length: 250 }, (_, i) => i));
    expect(parts.map((p) => p.length)).toEqual([90, 90, 70]);
    expect(parts.flat()).toHaveLength(250);
  });
});
