// The donors' rendered cells for one export, read once in rowid order: a hash join (decision 016).
import { csvCell } from "@core/csv";
import type { Database } from "../db/databases";
import { DONOR_CELLS } from "./export-columns";

const DONOR_CELL_COLUMNS = DONOR_CELLS.map(([, column]) => column).join(", ");
const NO_DONOR = ",".repeat(DONOR_CELLS.length);
type DonorRow = [id: string, ...cells: (string | null)[]];

/** Open addressing, FNV-1a: V8's Map interns a freshly cut key on every get, dearer than the look-up. */
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
 * Past `maxChars` characters (about that many bytes, and as much again for the table), or for donors
 * created since, missing donors are read by id a page at a time: memory stays flat.
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
    // CROSS JOIN keeps the ids as the outer loop: with an IN list SQLite walked every donor.
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

  /** Blank cells for no donor; those the cache lacks are read in one query. */
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
