/**
 * Row types from the schema, for raw SQL (docs/architecture.md "Rows"). Most queries are
 * hand-written SQL for the indexes they need (docs/performance.md), so a row comes back as D1
 * gives it: snake_case column names, epoch-ms integers for instants, 0/1 for booleans — not the
 * camelCase, Date-valued shape of drizzle's `$inferSelect`. `Row<typeof donation>` is that raw
 * shape, derived from the table definition, so a column added to the schema reaches every row
 * type at once and a hand-written interface cannot drift from the database.
 */
import type { Column, Table } from "drizzle-orm";

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
