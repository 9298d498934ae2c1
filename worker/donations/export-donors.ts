/**
 * The donors' rendered cells for one export (decision 016, "Donors: a hash join"): read once in
 * rowid order into an open-addressing table instead of a random look-up per exported row.
 */
import { csvCell } from "@core/csv";
import type { Database } from "../db/databases";
import { DONOR_CELLS } from "./export-columns";

/** The donor's eleven cells (first name … country), in export-columns.ts's order. */
const DONOR_CELL_COLUMNS = DONOR_CELLS.map(([, column]) => column).join(", ");
const NO_DONOR = ",".repeat(DONOR_CELLS.length);
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
    db: Database,
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
