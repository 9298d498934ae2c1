/**
 * What an import did and what it will do, in words (issue 55): the result's headline follows the
 * rows refused, and the import button counts what the whole-file check found. Pure, so the page and
 * the tests say it alike.
 */
import { countOf, formatCount } from "../labels.ts";

/** All rows imported (or skipped: already there, or not a donation) · some refused · half or more refused. */
export type ImportLevel = "all" | "some" | "most";

export interface ResultCounts {
  rowsSkipped: number;
  rowsInvalid: number;
}

/** The result's headline and its tone, from the import's tally and the rows it read. */
export function resultWords(
  counts: ResultCounts,
  rows: number,
  fileName: string,
): { level: ImportLevel; title: string } {
  const refused = counts.rowsInvalid;
  const skipped = counts.rowsSkipped;
  const imported = Math.max(0, rows - refused - skipped);
  const skippedWords = skipped ? `; ${formatCount(skipped)} skipped` : "";
  if (refused === 0)
    return {
      level: "all",
      title:
        skipped === 0
          ? `All ${countOf(rows, "row", "rows")} of ${fileName} were imported`
          : `${formatCount(imported)} of ${countOf(rows, "row", "rows")} of ${fileName} were imported${skippedWords}`,
    };
  if (imported === 0 && skipped === 0)
    return {
      level: "most",
      title:
        refused === 1
          ? `Nothing was imported: the one row of ${fileName} was refused`
          : `Nothing was imported: all ${formatCount(refused)} rows of ${fileName} were refused`,
    };
  const title = `${formatCount(refused)} of ${countOf(rows, "row", "rows")} of ${fileName} were refused; ${formatCount(imported)} imported${skippedWords}`;
  return { level: refused * 2 >= rows ? "most" : "some", title };
}

export interface CheckOutcomes {
  new: number;
  matched: number;
  skipped: number;
  invalid: number;
}

/** The import button's words after the whole-file check: the rows it will import, and the rest. */
export function importButtonWords(o: CheckOutcomes): { rows: number; label: string } {
  const rows = o.new + o.matched;
  const rest = [
    o.invalid ? `${formatCount(o.invalid)} refused` : "",
    o.skipped ? `${formatCount(o.skipped)} skipped` : "",
  ].filter(Boolean);
  if (rows === 0) return { rows, label: "Nothing to import" };
  return {
    rows,
    label: `Import ${countOf(rows, "row", "rows")}${rest.length ? ` (${rest.join(", ")})` : ""}`,
  };
}
