// Row types for raw SQL (docs/architecture.md "Rows") in D1's own shape: snake_case, epoch ms, 0/1. Derived
// from the table definitions, so a hand-written interface cannot drift from the database.
import type { DonationStatus } from "@core/status";
import { type Column, getTableColumns, is, SQL, type Table } from "drizzle-orm";
import type { donation } from "./schema";

/** What D1 returns for one column: timestamps and booleans are stored as integers. */
type RawValue<C extends Column> = (
  C["_"]["columnType"] extends "SQLiteTimestamp" | "SQLiteBoolean"
    ? number
    : C["_"]["data"]
) extends infer V
  ? C["_"]["notNull"] extends true
    ? V
    : V | null
  : never;

/** The row of `T` as raw SQL (`SELECT *`) returns it: column names as in the database. */
export type Row<T extends Table> = {
  [K in keyof T["_"]["columns"] as T["_"]["columns"][K]["_"]["name"]]: RawValue<T["_"]["columns"][K]>;
};

/** A donation as `SELECT *` gives it, its status one of the machine's. */
export type DonationRow = Omit<Row<typeof donation>, "status"> & { status: DonationStatus };

/** `T`'s column names in the schema's order, typed as `Row<T>`'s keys. */
export const columnNames = <T extends Table>(table: T) =>
  Object.values(getTableColumns(table)).map((c) => c.name) as (keyof Row<T> & string)[];

/** A new row as the schema defaults it, in D1's shape (a boolean default is 0/1); null where none. */
export function schemaDefaults<T extends Table>(table: T): Row<T> {
  const out: Record<string, unknown> = {};
  for (const c of Object.values(getTableColumns(table)))
    out[c.name] =
      c.hasDefault && c.default !== undefined && !is(c.default, SQL) ? c.mapToDriverValue(c.default) : null;
  return out as Row<T>;
}

type CamelKey<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelKey<T>>}` : S;
/** `R` with camelCase keys: the one mapping between D1's rows and the API's and rules' shapes. */
export type Camel<R> = { [K in keyof R & string as CamelKey<K>]: R[K] };

const camelKeys = new Map<string, string>();
const camelKey = (k: string) => {
  let c = camelKeys.get(k);
  if (c === undefined) {
    c = k.replace(/_([a-z])/g, (_, l: string) => l.toUpperCase());
    camelKeys.set(k, c);
  }
  return c;
};

/** `keys` of `row` under camelCase names (each name converted once: lists present many rows). */
export function camelPick<R extends object, const K extends keyof R & string>(row: R, keys: readonly K[]) {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[camelKey(k)] = row[k];
  return out as Camel<Pick<R, K>>;
}
