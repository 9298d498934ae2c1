/**
 * GET /api/export/donations.csv?<filters>: the current filters of /donations, no pagination,
 * streamed in keyset pages (flat memory, never truncated), with the shared CSV rules of
 * worker/lib/csv.ts (UTF-8 BOM, RFC 4180 quoting, formula cells prefixed with ').
 * Columns: domain.md §5.1; amounts in major units with a currency column, ISO 8601 dates.
 *
 * How it stays fast at a million rows (docs/decisions/016-donations-export.md):
 * - SQLite writes the finished cells of each row in three parts (`fastPageSql`); the Worker adds
 *   the two dates and the donor's cells. A row whose cells need CSV escaping (or that SQL cannot
 *   write exactly) is read again by rowid and written by `donationLine`, the reference.
 * - Donors are not joined per row (a random look-up each): their cells are read once, in rowid
 *   order, into a bounded cache (`DonorCells`), a hash join with the donors as the build side.
 */

import { CSV_BOM, csvCell, csvCells, csvRow, isoUtc, isoWithOffset } from "@core/csv";
import { exponentOf, toMajorString } from "@core/money";
import type { z } from "zod";
import { auditStatement } from "../lib/audit";
import { donationFilters, donationWhere } from "../trpc/routers/donations";
import { exportAccess } from "./export-access";
import { json } from "./headers";

export const DONATION_COLUMNS = [
  "donation_number",
  "donation_id",
  "donated_at",
  "donated_at_local",
  "status",
  "mode",
  "amount",
  "fee_covered",
  "processing_fee",
  "net_amount",
  "refunded_amount",
  "currency",
  "base_amount",
  "base_currency",
  "exchange_rate",
  "frequency",
  "payment_method",
  "gateway",
  "gateway_transaction_id",
  "campaign_id",
  "campaign_title",
  "item_title",
  "quantity",
  "donor_id",
  "donor_first_name",
  "donor_last_name",
  "donor_email",
  "donor_phone",
  "company",
  "address_line1",
  "address_line2",
  "city",
  "state",
  "postal_code",
  "country",
  "is_anonymous",
  "public_message",
  "tribute_type",
  "tribute_name",
  "source",
  "receipt_sent_at",
] as const;

/** A donation's own values for `donationLine` (the donor's cells come from the donor cache). */
export type RawRow = [
  id: string,
  number: number,
  donatedAt: number,
  status: string,
  mode: string,
  amountMinor: number,
  feeCoveredMinor: number,
  processingFeeMinor: number,
  platformFeeMinor: number,
  refundedMinor: number,
  currency: string,
  frequency: string,
  paymentMethod: string,
  gateway: string | null,
  gatewayTransactionId: string | null,
  campaignId: string | null,
  campaignTitle: string | null,
  itemTitle: string | null,
  campaignItemId: string | null,
  itemQuantity: number,
  donorId: string | null,
  anonymous: number,
  message: string | null,
  tributeType: string | null,
  tributeName: string | null,
  source: string,
];

/** `RawRow`'s columns, for `FROM donation d LEFT JOIN campaign c … LEFT JOIN campaign_item i …`. */
export const RAW_COLUMNS = `d.id, d.number, d.donated_at, d.status, d.mode, d.amount_minor, d.fee_covered_minor,
  d.processing_fee_minor, d.platform_fee_minor, d.refunded_minor, d.currency, d.frequency, d.payment_method, d.gateway,
  d.gateway_transaction_id, d.campaign_id, c.title, i.title, d.campaign_item_id, d.item_quantity, d.donor_id,
  d.anonymous, d.message, d.tribute_type, d.tribute_name, d.source`;

/** One line of the file (the reference): the donor's eleven cells come rendered, each followed by its comma. */
export function donationLine(
  r: RawRow,
  donorCells: string,
  org: { defaultCurrency: string; timeZone: string },
) {
  const [
    id,
    number,
    donatedAt,
    status,
    mode,
    amountMinor,
    feeCoveredMinor,
    processingFeeMinor,
    platformFeeMinor,
    refundedMinor,
    cur,
    frequency,
    paymentMethod,
    gateway,
    gatewayTransactionId,
    campaignId,
    campaignTitle,
    itemTitle,
    campaignItemId,
    itemQuantity,
    donorId,
    anonymous,
    message,
    tributeType,
    tributeName,
    source,
  ] = r;
  // Gifts are stored in their own currency without conversion: the base amount is known only
  // when that is the organization's currency (docs/decisions/010-donations-analytics-and-export.md).
  const inBase = cur === org.defaultCurrency;
  const amount = toMajorString(amountMinor, cur);
  const head = csvCells([
    number,
    id,
    isoUtc(donatedAt),
    isoWithOffset(donatedAt, org.timeZone),
    status,
    mode,
    amount,
    toMajorString(feeCoveredMinor, cur),
    toMajorString(processingFeeMinor, cur),
    toMajorString(amountMinor - refundedMinor - processingFeeMinor - platformFeeMinor, cur),
    toMajorString(refundedMinor, cur),
    cur,
    inBase ? amount : "",
    inBase ? cur : "",
    inBase ? "1" : "",
    frequency,
    paymentMethod,
    gateway,
    gatewayTransactionId,
    campaignId,
    campaignTitle,
    itemTitle,
    campaignItemId ? itemQuantity : "",
    donorId,
  ]);
  const tail = csvCells([anonymous ? "yes" : "no", message, tributeType, tributeName, source, ""]);
  return `${head},${donorCells}${tail}\r\n`;
}

/**
 * SQL for csvCell of a text column (NUL excepted: rows with a NUL take the re-read path): quoted
 * when it holds a quote, comma, CR or LF, with a ' first when it starts with = + - @ tab or CR.
 */
export function csvCellSql(x: string) {
  const lead = `unicode(${x}) IN (61, 43, 45, 64, 9, 13)`;
  return `CASE WHEN ${x} IS NULL THEN ''
    WHEN ${x} GLOB '*[",' || char(10, 13) || ']*' THEN '"' || CASE WHEN ${lead} THEN '''' ELSE '' END || replace(${x}, '"', '""') || '"'
    WHEN ${lead} THEN '''' || ${x} ELSE ${x} END`;
}

/**
 * The most bytes a page's records may take: D1 refuses any string over 2 000 000 bytes ("Maximum
 * string, BLOB or table row size", developers.cloudflare.com/d1/platform/limits/), and a page is one
 * string. Each record is at most RECORD_BYTES (longer rows take the re-read path), so a page of
 * `pageSize` rows stays under it for pageSize ≤ 5 000.
 */
export const RECORD_BYTES = 379;
export const MAX_PAGE_ROWS = Math.floor(1_900_000 / (RECORD_BYTES + 1));

/**
 * SQL for one page of the export, answered as one row: [rows, records]. SQLite writes the cells
 * of each row in three parts, around the two dates and the donor's cells that the Worker adds (the
 * zone offsets are JavaScript's; the donors come from its cache):
 *   a = "number,id,"   b = "status … donor_id,"   c = "is_anonymous … receipt_sent_at\r\n"
 * and the page is one string of records "donated_at␡rowid␡a␡b␡c" joined by ␡: one value for D1
 * to hand over instead of five per row (it converts and serializes each value on its own).
 * a and b are written without CSV escaping and used only where that gives `donationLine`'s bytes
 * (`plainRow`); c's free text is escaped here. Otherwise SQL leaves a, b and c empty and the row
 * is re-read by rowid: when the currency is not the organization's (the base columns and the
 * exponent are known here only for it), when a text cell holds a NUL (printf would cut the text
 * there) or a ␡ (the separator), or when the record would pass RECORD_BYTES.
 * Binds: the organization's currency, `where`'s parameters, then the keyset (donated_at,
 * donated_at, id). The records come in the subquery's order (a co-routine feeding the aggregate);
 * `pageRows` checks that order on every page.
 */
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
    // The net amount alone can be negative (refunded, fees kept): csvCell writes "-1.23" as "'-1.23".
    `CASE WHEN ${net} < 0 THEN '''-' ELSE '' END`,
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
  // Every free-text cell, for the NUL and ␡ checks (concat() keeps a NUL where printf stops);
  // status, mode, frequency and source are CHECK-bound words.
  const text = `concat(d.id, d.currency, d.payment_method, d.gateway, d.gateway_transaction_id, d.campaign_id,
    c.title, i.title, d.donor_id, d.message, d.tribute_type, d.tribute_name)`;
  // The free-text cells after the donor's are escaped here (csvCell's rules: quoted when they hold
  // a quote, comma or line break, a ' first before a formula character): messages often need it.
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

/**
 * One record of `fastPageSql`. The id and the donor's id are read out of `a` and `b` when the row
 * is plain, else from its `RawRow`.
 */
type PageRow = [donatedAt: number, rowid: number, a: string, b: string, c: string];

/** The records of a page (see fastPageSql), checked to come newest first. */
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
function donorOf(b: string): string | null {
  return b.slice(b.lastIndexOf(",", b.length - 2) + 1, b.length - 1) || null;
}

/** The donation's id from `a` ("number,id,"). */
function idOf(a: string): string {
  return a.slice(a.indexOf(",") + 1, a.length - 1);
}

/**
 * True when `s` (up to `end`) is `cells` cells each followed by a comma that csvCell would write
 * unchanged: no quote, line break or NUL, no comma inside a cell (so exactly `cells` commas), and
 * no cell starting with a formula character (= + - @ tab).
 */
export function plainParts(s: string, cells: number, end = s.length): boolean {
  let commas = 0;
  let start = true;
  for (let i = 0; i < end; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 44) {
      commas++;
      start = true;
      continue;
    }
    if (ch === 34 || ch === 10 || ch === 13 || ch === 0) return false;
    if (start && (ch === 61 || ch === 43 || ch === 45 || ch === 64 || ch === 9)) return false;
    start = false;
  }
  return commas === cells && end > 0 && s.charCodeAt(end - 1) === 44;
}

/**
 * `fastPageSql`'s parts are `donationLine`'s bytes: a (2 cells) and b (20) are written unescaped
 * and must be plain; c is escaped by SQL and only has to be there (a re-read row has no parts).
 */
export function plainRow(a: string, b: string, c: string | null): c is string {
  return c !== null && c.length > 0 && plainParts(a, 2) && plainParts(b, 20);
}

/** The donor's eleven cells, from `id` (first name … country). */
const DONOR_CELL_COLUMNS = `dn.first_name, dn.last_name, dn.email, dn.phone, dn.company, dn.address_line1,
  dn.address_line2, dn.city, dn.region, dn.postal_code, dn.country`;
const NO_DONOR = ",".repeat(11);
type DonorRow = [id: string, ...cells: (string | null)[]];

/**
 * A string-to-string hash table (open addressing, FNV-1a): the donor cache's look-up runs once per
 * exported row with a key just cut out of a page, and V8's Map interns such a key on every get
 * (a string-table probe), which cost more than the look-up itself.
 */
export class IdTable {
  private keys: (string | undefined)[] = new Array(1024);
  private values: string[] = new Array(1024);
  private mask = 1023;
  size = 0;

  private static hash(s: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }

  get(key: string): string | undefined {
    const keys = this.keys;
    for (let i = IdTable.hash(key) & this.mask; ; i = (i + 1) & this.mask) {
      const k = keys[i];
      if (k === undefined) return undefined;
      if (k === key) return this.values[i];
    }
  }

  set(key: string, value: string) {
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    const keys = this.keys;
    let i = IdTable.hash(key) & this.mask;
    for (; keys[i] !== undefined; i = (i + 1) & this.mask)
      if (keys[i] === key) {
        this.values[i] = value;
        return;
      }
    keys[i] = key;
    this.values[i] = value;
    this.size++;
  }

  clear() {
    this.keys = new Array(1024);
    this.values = new Array(1024);
    this.mask = 1023;
    this.size = 0;
  }

  private grow() {
    const { keys, values } = this;
    this.keys = new Array(keys.length * 2);
    this.values = new Array(keys.length * 2);
    this.mask = keys.length * 2 - 1;
    this.size = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k !== undefined) this.set(k, values[i] as string);
    }
  }
}

/**
 * The donors' rendered cells for one export. An export of every gift meets each donor many times
 * (1M gifts, 100k donors) in no useful order, and a donor read by id is a random look-up (about
 * 4 page reads), so once an export runs past its first page the organization's donors are read
 * in rowid order (sequential pages) up to `maxChars` characters of cells, about the memory of
 * `maxChars` bytes and as much again for the table; past that, or for donors created since,
 * missing donors are read by id, a page at a time (emptying the cache when it is full). Memory
 * stays flat however many rows the export has.
 */
export class DonorCells {
  private readonly cells = new IdTable();
  private chars = 0;
  private readonly byId: D1PreparedStatement;
  private readonly inRowidOrder: D1PreparedStatement;

  constructor(
    db: D1Database,
    private readonly orgId: string,
    private readonly maxChars = 16_000_000,
    private readonly prefetchPage = 20_000,
  ) {
    // CROSS JOIN keeps the ids as the outer loop (with an IN list SQLite walked every donor of
    // the organization by an organization index).
    this.byId = db.prepare(
      `SELECT dn.id, ${DONOR_CELL_COLUMNS} FROM json_each(?2) j CROSS JOIN donor dn ON dn.id = j.value WHERE dn.organization_id = ?1`,
    );
    this.inRowidOrder = db.prepare(
      `SELECT k.r, dn.id, ${DONOR_CELL_COLUMNS}
         FROM (SELECT rowid AS r FROM donor WHERE organization_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ${prefetchPage}) k
         CROSS JOIN donor dn ON dn.rowid = k.r`,
    );
  }

  get size() {
    return this.cells.size;
  }

  private add(r: DonorRow) {
    // Joined, not appended: a flat string, where `+=` leaves a rope that every line would walk.
    const cells = `${r.slice(1).map(csvCell).join(",")},`;
    this.cells.set(r[0], cells);
    this.chars += r[0].length + cells.length;
  }

  /** Reads every donor of the organization in rowid order, until `maxChars`. */
  async prefetch() {
    let after = 0;
    for (;;) {
      const rows = await this.inRowidOrder.bind(this.orgId, after).raw<[number, ...DonorRow]>();
      for (const [, ...donor] of rows) this.add(donor as DonorRow);
      if (this.chars > this.maxChars) return;
      if (rows.length < this.prefetchPage) break;
      after = (rows[rows.length - 1] as [number, ...DonorRow])[0];
    }
  }

  /**
   * The cells of each donor of `ids` (in order; blank cells for no donor), reading those the cache
   * lacks in one query (emptying the cache first when it is over its budget).
   */
  async cellsOf(ids: (string | null)[]): Promise<string[]> {
    const out = new Array<string>(ids.length);
    const missing = new Map<string, number[]>();
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as string | null;
      const cells = id === null ? NO_DONOR : this.cells.get(id);
      if (cells !== undefined) out[i] = cells;
      else {
        const at = missing.get(id as string);
        if (at) at.push(i);
        else missing.set(id as string, [i]);
      }
    }
    // A complete cache lacks only donors created since it was read (or ids with no donor row).
    if (!missing.size) return out;
    // Over the budget (an organization with more donors than fit): start over with this page's.
    if (this.chars > this.maxChars) {
      this.cells.clear();
      this.chars = 0;
    }
    const found = await this.byId
      .bind(this.orgId, JSON.stringify([...missing.keys()].sort()))
      .raw<DonorRow>();
    for (const r of found) this.add(r);
    for (const [id, at] of missing) {
      const cells = this.cells.get(id) ?? NO_DONOR;
      for (const i of at) out[i] = cells;
    }
    return out;
  }
}

/** Rows per keyset page: at most two pages in memory at a time. */
const EXPORT_PAGE = 5000;

type DonationFilters = z.infer<typeof donationFilters>;

/** The export's filters from the query string: the list's own schema, so both select the same rows. */
export function parseDonationExportFilters(searchParams: URLSearchParams) {
  const params = Object.fromEntries(searchParams);
  const num = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number(v));
  return donationFilters.safeParse({
    ...params,
    status: params.status ? params.status.split(",") : undefined,
    minAmountMinor: num(params.minAmountMinor),
    maxAmountMinor: num(params.maxAmountMinor),
    trashed: params.trashed === "true",
  });
}

/** Tuning of `donationCsvStream` (tests use small values to cross every page and cache edge). */
export type ExportOptions = { pageSize?: number; donorChars?: number; donorPrefetchPage?: number };

/**
 * The CSV of the donations `filters` select in `org`, newest first (ties by id), as a stream of
 * UTF-8 chunks: one keyset page of at most `pageSize` rows per chunk.
 */
export function donationCsvStream(
  db: D1Database,
  org: { id: string; timeZone: string; defaultCurrency: string },
  filters: DonationFilters,
  { pageSize = EXPORT_PAGE, donorChars, donorPrefetchPage }: ExportOptions = {},
): ReadableStream<Uint8Array> {
  const w = donationWhere(org.id, org.timeZone, filters);
  const items =
    "LEFT JOIN campaign c ON c.id = d.campaign_id LEFT JOIN campaign_item i ON i.id = d.campaign_item_id";
  // The donor is joined only when the search filter reads its name or e-mail.
  const from = `donation d ${items}${w.sql.some((clause) => clause.includes("dn.")) ? " LEFT JOIN donor dn ON dn.id = d.donor_id" : ""}`;
  // Keyset pagination: constant cost per page however deep the export goes. The bound is written
  // as a range on donated_at (<=) so SQLite seeks donation_org_date_idx to it; the equivalent
  // "donated_at < ? OR (donated_at = ? AND id < ?)" made it walk the index from the newest gift on
  // every page (quadratic: 2 300 rows/s at 200 000 gifts).
  const limit = Math.min(pageSize, MAX_PAGE_ROWS);
  const page = db.prepare(
    fastPageSql(exponentOf(org.defaultCurrency), from, `WHERE ${w.sql.join(" AND ")}`, limit),
  );
  const fetchAfter = (date: number, id: string) =>
    page
      .bind(org.defaultCurrency, ...w.params, date, date, id)
      .raw<[number, string | null]>()
      .then(([result]) => pageRows(result?.[1] ?? null));
  // The rows SQLite could not write, by rowid: its pages were just read, so they are still cached.
  const rawByRowid = db.prepare(
    `SELECT d.rowid, ${RAW_COLUMNS} FROM json_each(?2) j CROSS JOIN donation d ON d.rowid = j.value ${items}
      WHERE d.organization_id = ?1`,
  );
  /** The page's rows that are not plain, read again (their values for `donationLine`). */
  const loadRaw = async (rows: PageRow[], plain: boolean[]) => {
    const rowids: number[] = [];
    for (let i = 0; i < rows.length; i++) if (!plain[i]) rowids.push((rows[i] as PageRow)[1]);
    const raw = new Map<number, RawRow>();
    if (rowids.length)
      for (const [rowid, ...r] of await rawByRowid
        .bind(org.id, JSON.stringify(rowids))
        .raw<[number, ...RawRow]>())
        raw.set(rowid, r as RawRow);
    return raw;
  };
  const donors = new DonorCells(db, org.id, donorChars, donorPrefetchPage);
  let pages = 0;
  const encoder = new TextEncoder();
  // The next page is asked for as soon as a page arrives (after its donors and re-read rows, so D1
  // answers those first): D1 reads it while this one is written; two pages in memory at most.
  let next: Promise<PageRow[]> | null = fetchAfter(Number.MAX_SAFE_INTEGER, "\uffff");
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvRow(DONATION_COLUMNS)));
    },
    async pull(controller) {
      const results = next ? await next : [];
      if (!results.length) {
        next = null;
        controller.close();
        return;
      }
      const plain = results.map(([, , a, b, c]) => plainRow(a, b, c));
      let raw: Map<number, RawRow>;
      let cells: string[];
      try {
        // Past one page the export meets most donors: read them all in order once (a hash join).
        if (pages++ === 0 && results.length === limit) await donors.prefetch();
        const rawLoaded = loadRaw(results, plain);
        // Plain rows name their donor in b's last cell; the others in their RawRow.
        const donorIds = results.map(([, , , b], i) => (plain[i] ? donorOf(b) : null));
        const cellsLoaded = donors.cellsOf(donorIds);
        if (results.length === limit) {
          // The keyset: the last row whose id is known (a = "number,id," for plain rows, else the
          // re-read row; a row deleted meanwhile has neither, and the rows after the last known
          // one are all such rows).
          let at = results.length - 1;
          let id: string | undefined;
          for (; at >= 0; at--) {
            const [, rowid, a] = results[at] as PageRow;
            id = plain[at] ? idOf(a) : (await rawLoaded).get(rowid)?.[0];
            if (id !== undefined) break;
          }
          next = fetchAfter((results[Math.max(at, 0)] as PageRow)[0], id ?? "");
        } else next = null;
        [cells, raw] = await Promise.all([cellsLoaded, rawLoaded]);
        if (raw.size) {
          const rawDonors = results.map(([, rowid]) => raw.get(rowid)?.[20] ?? null);
          const rawCells = await donors.cellsOf(rawDonors);
          for (let i = 0; i < results.length; i++) if (!plain[i]) cells[i] = rawCells[i] as string;
        }
      } catch (e) {
        next?.catch(() => {});
        next = null;
        throw e;
      }
      // One rope per page, flattened once by TextEncoder: cheaper here than Array.join over eight
      // pieces a row (measured), now that every piece is itself flat.
      let chunk = "";
      for (let i = 0; i < results.length; i++) {
        const [donatedAt, rowid, a, b, c] = results[i] as PageRow;
        if (plain[i])
          chunk += `${a}${isoUtc(donatedAt)},${isoWithOffset(donatedAt, org.timeZone)},${b}${cells[i]}${c}`;
        else {
          // (A row deleted between the two reads is left out.)
          const r = raw.get(rowid);
          if (r) chunk += donationLine(r, cells[i] as string, org);
        }
      }
      controller.enqueue(encoder.encode(chunk));
    },
    cancel() {
      // The client went away: let a page in flight settle without an unhandled rejection.
      next?.catch(() => {});
      next = null;
    },
  });
}

export async function handleDonationExport(request: Request, env: Env): Promise<Response> {
  const access = await exportAccess(request, env, { donation: ["view"] });
  if (access instanceof Response) return access;
  const { user, org } = access;
  const parsed = parseDonationExportFilters(new URL(request.url).searchParams);
  if (!parsed.success)
    return json({ code: "BAD_REQUEST", message: "Invalid export filters" }, { status: 400 });
  // Who exported what (domain.md §5.2): the filters, before the first byte leaves.
  await auditStatement(
    { env, user, org },
    { action: "donation.export", entityType: "donation", entityId: "export", after: parsed.data },
  ).run();
  const stream = donationCsvStream(env.DB, org, parsed.data);
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${org.slug}-donations-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
