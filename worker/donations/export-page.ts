// One keyset page of the donations export, written by SQLite (decision 016). The Worker checks the parts
// (`pageRows`, `plainRow`); a row SQL cannot write exactly is re-read and written by `donationLine`.

import { FORMULA_GUARD, needsFormulaGuard } from "@core/csv";

/** csvCell in SQL, with core/csv.ts's FORMULA_GUARD; a NUL sends the row to the re-read path. */
function csvCellSql(x: string) {
  const rest = `substr(${x}, 2)`;
  // GLOB's [^…] with the - last (a literal there): a character that is not inert.
  const set = FORMULA_GUARD.inertAfterSign.replace("-", "");
  const inert = `(${rest} NOT GLOB '*[^${set}-]*' AND ${rest} GLOB '*[0-9]*')`;
  const always = FORMULA_GUARD.always.filter((c) => c !== 0).join(", ");
  const lead = `(unicode(${x}) IN (${always}) OR (unicode(${x}) IN (${FORMULA_GUARD.signs.join(", ")}) AND NOT ${inert}))`;
  return `CASE WHEN ${x} IS NULL THEN ''
    WHEN ${x} GLOB '*[",' || char(10, 13) || ']*' THEN '"' || CASE WHEN ${lead} THEN '''' ELSE '' END || replace(${x}, '"', '""') || '"'
    WHEN ${lead} THEN '''' || ${x} ELSE ${x} END`;
}

// D1 refuses any string over 2 000 000 bytes and a page is one string: with records of at most RECORD_BYTES
// (longer rows take the re-read path), MAX_PAGE_ROWS keeps a page under it.
export const RECORD_BYTES = 379;
export const MAX_PAGE_ROWS = Math.floor(1_900_000 / (RECORD_BYTES + 1));

// One row [rows, records]: records "donated_at␡rowid␡a␡b␡c" joined by ␡, one value for D1 to hand over.
//   a = "number,id,"   b = "status … donor_id,"   c = "is_anonymous … receipt_sent_at\r\n"
// The parts are empty (the row is re-read) for another currency, a NUL or ␡ in a text cell, or a record over
// RECORD_BYTES. Binds: the currency, `where`'s parameters, then the keyset (donated_at, donated_at, id).
export function fastPageSql(exponent: number, from: string, where: string, pageSize: number) {
  const scale = 10 ** exponent;
  const money = (m: string) => (exponent === 0 ? [m] : [`(${m}) / ${scale}`, `(${m}) % ${scale}`]);
  const moneyFormat = exponent === 0 ? "%d" : `%d.%0${exponent}d`;
  const net = "d.amount_minor - d.refunded_minor - d.processing_fee_minor - d.platform_fee_minor";
  const b = [
    `'%s,%s,${moneyFormat},${moneyFormat},${moneyFormat},%s${moneyFormat},${moneyFormat},%s,${moneyFormat},%s,1,%s,%s,%s,%s,%s,%s,%s,%s,%s,'`,
    "d.status",
    "d.mode",
    ...money("d.amount_minor"),
    ...money("d.fee_covered_minor"),
    ...money("d.processing_fee_minor"),
    // The net amount alone can be negative (refunded, fees kept): a number, written unguarded.
    `CASE WHEN ${net} < 0 THEN '-' ELSE '' END`,
    ...money(`abs(${net})`),
    ...money("d.refunded_minor"),
    "d.currency",
    ...money("d.amount_minor"),
    "d.currency",
    "d.frequency",
    "d.payment_method",
    "d.gateway",
    "d.gateway_transaction_id",
    "d.campaign_id",
    "c.title",
    "i.title",
    "CASE WHEN d.campaign_item_id IS NOT NULL AND d.campaign_item_id != '' THEN d.item_quantity ELSE '' END",
    "d.donor_id",
  ];
  // Every free-text cell, for the NUL and ␡ checks (concat() keeps a NUL where printf stops).
  const text = `concat(d.id, d.currency, d.payment_method, d.gateway, d.gateway_transaction_id, d.campaign_id,
    c.title, i.title, d.donor_id, d.message, d.tribute_type, d.tribute_name)`;
  // The free-text cells after the donor's are escaped here: messages often need it.
  const c = `concat(CASE WHEN d.anonymous THEN 'yes' ELSE 'no' END, ',', ${csvCellSql("d.message")}, ',',
    ${csvCellSql("d.tribute_type")}, ',', ${csvCellSql("d.tribute_name")}, ',', d.source, ',', char(13, 10))`;
  const page = `SELECT d.donated_at AS t, d.rowid AS r, printf('%d,%s,', d.number, d.id) AS a, printf(${b.join(", ")}) AS b,
      ${c} AS c, ${text} AS text, d.currency = ? AND d.number >= 0 AS ok
    FROM ${from}
    ${where} AND d.donated_at <= ? AND (d.donated_at < ? OR d.id < ?)
    ORDER BY d.donated_at DESC, d.id DESC LIMIT ${Math.min(pageSize, MAX_PAGE_ROWS)}`;
  // ␡ (DEL) separates: JSON carries it as it is, where a control character would take six bytes.
  return `SELECT count(*), group_concat(
      CASE WHEN x.ok AND instr(x.text, char(0)) = 0 AND instr(x.text, char(127)) = 0
          AND octet_length(x.a) + octet_length(x.b) + octet_length(x.c) + octet_length(x.t) + octet_length(x.r) <= ${RECORD_BYTES - 4}
        THEN concat(x.t, char(127), x.r, char(127), x.a, char(127), x.b, char(127), x.c)
        ELSE concat(x.t, char(127), x.r, char(127), char(127), char(127)) END, char(127))
    FROM (${page}) x`;
}

/** The id and the donor's id are read out of `a` and `b` when the row is plain, else from its `RawRow`. */
export type PageRow = [donatedAt: number, rowid: number, a: string, b: string, c: string];

/** Checked to come newest first: the order is the subquery's, not promised by SQL. */
export function pageRows(records: string | null): PageRow[] {
  if (!records) return [];
  const f = records.split("\x7f");
  if (f.length % 5 !== 0) throw new Error("export page: malformed records");
  const rows = new Array<PageRow>(f.length / 5);
  let prev = Number.POSITIVE_INFINITY;
  for (let i = 0, k = 0; k < f.length; i++, k += 5) {
    const t = Number(f[k]);
    if (!(t <= prev)) throw new Error("export page: records out of order");
    prev = t;
    rows[i] = [t, Number(f[k + 1]), f[k + 2] as string, f[k + 3] as string, f[k + 4] as string];
  }
  return rows;
}

/** The donor's id, the last cell of a plain `b` ("…,donor_id,"), or null for none. */
export function donorOf(b: string): string | null {
  return b.slice(b.lastIndexOf(",", b.length - 2) + 1, b.length - 1) || null;
}

export function idOf(a: string): string {
  return a.slice(a.indexOf(",") + 1, a.length - 1);
}

// True when csvCell would write each of the `cells` cells in `s` unchanged: no quote, line break, NUL,
// comma inside a cell, or formula guard.
export function plainParts(s: string, cells: number, end = s.length): boolean {
  let commas = 0;
  let cellStart = 0;
  for (let i = 0; i < end; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 44) {
      if (needsFormulaGuard(s, cellStart, i)) return false;
      commas++;
      cellStart = i + 1;
      continue;
    }
    if (ch === 34 || ch === 10 || ch === 13 || ch === 0) return false;
  }
  return commas === cells && end > 0 && s.charCodeAt(end - 1) === 44;
}

/** a and b are written unescaped, so must be plain; c is escaped by SQL and only has to be there. */
export function plainRow(a: string, b: string, c: string | null): c is string {
  return c !== null && c.length > 0 && plainParts(a, 2) && plainParts(b, 20);
}
