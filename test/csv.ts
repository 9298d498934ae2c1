/** CSV reading for the export suites (the writer is core/csv.ts). */

/** A strict RFC 4180 reader: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else if (ch === '"' || ch === "\n" || ch === "\r")
      throw new Error(`bare ${JSON.stringify(ch)} at ${i}`);
    else cell += ch;
  }
  if (cell !== "" || row.length) throw new Error("file does not end with CRLF");
  return rows;
}
