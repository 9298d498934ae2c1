// One list helper for every server-side table (DESIGN §4 lists): whitelisted sorts, a stable tiebreak on id.
import { z } from "zod";
import { defaultConfig } from "../../app.config";
import type { Database } from "../db/databases";
import { fail } from "./fail";

export const pageSchema = {
  page: z.number().int().min(1).max(100_000).default(1),
  pageSize: z
    .number()
    .int()
    .refine((n) => defaultConfig.lists.pageSizes.includes(n), "Page size must be 10, 25, 50 or 100")
    .default(defaultConfig.lists.defaultPageSize),
  desc: z.boolean().default(true),
  q: z.string().trim().max(200).optional(),
};

/** A list procedure's input: a whitelisted `sort` (an unknown key is a 400, never interpolated) and filters;
 * strict, so no tenant id can be smuggled in. */
export function listInput<
  const S extends Record<string, string>,
  F extends z.ZodRawShape = Record<never, z.ZodType>,
>(opts: { sorts: S; defaultSort: keyof S & string; filters?: F }) {
  const keys = Object.keys(opts.sorts) as [keyof S & string, ...(keyof S & string)[]];
  return z
    .object({
      ...pageSchema,
      sort: z.enum(keys).default(opts.defaultSort),
      ...((opts.filters ?? {}) as F),
    })
    .strict();
}

/** The SQL expression of a whitelisted sort key (the schema already refused anything else). */
export function sortColumn<S extends Record<string, string>>(sorts: S, key: keyof S): string {
  const col = sorts[key];
  if (!col) fail("BAD_REQUEST", "Unknown sort");
  return col;
}

/** D1 binds at most 100 parameters per statement (developers.cloudflare.com/d1/platform/limits). */
export const D1_MAX_PARAMS = 100;

export function chunk<T>(items: readonly T[], size = D1_MAX_PARAMS - 10): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `column IN (?, ?, …)` for a facet; the schema caps the value count (core/schemas.ts enumSet). */
export function addIn(w: Where, column: string, values: readonly unknown[] | undefined) {
  if (!values?.length) return;
  add(w, `${column} IN (${values.map(() => "?").join(", ")})`, ...values);
}

const MAX_OFFSET = 10_000;

export interface Where {
  sql: string[];
  params: unknown[];
}

export const where = (): Where => ({ sql: [], params: [] });

export function add(w: Where, clause: string, ...params: unknown[]) {
  w.sql.push(clause);
  w.params.push(...params);
}

/** Searches use instr(), never LIKE: D1 refuses a LIKE pattern past 50 bytes, and a substring has no
 * wildcards to escape (decision 040). The needle is `searchNeedle(input)`. */
export const containsSql = (expr: string, p = "?") => `instr(lower(${expr}), ${p}) > 0`;

/** ASCII letters lower-cased, as SQLite's lower() folds the column: toLowerCase would search "élodie" for
 * "Élodie", which lower() never makes of it. */
export const searchNeedle = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Offset pages cost O(offset): past MAX_OFFSET a clear refusal, not a timeout. */
export function checkedOffset(page: number, pageSize: number) {
  const offset = (page - 1) * pageSize;
  if (offset >= MAX_OFFSET) {
    fail(
      "BAD_REQUEST",
      `Only the first ${MAX_OFFSET.toLocaleString("en-US")} rows can be paged; narrow the filters or reverse the sort`,
    );
  }
  return offset;
}

export async function runList<T>(
  db: Database,
  opts: {
    select: string;
    from: string;
    where: Where;
    orderBy: string;
    desc: boolean;
    page: number;
    pageSize: number;
    totals?: string;
    /** Stable tiebreak column (qualify it when the FROM joins tables). */
    tiebreak?: string;
    /** A cheaper FROM for the count/totals (no joins) when the filters do not need the joins. */
    countFrom?: string;
  },
): Promise<{
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
  totals: Record<string, number> | null;
}> {
  const whereSql = opts.where.sql.length ? `WHERE ${opts.where.sql.join(" AND ")}` : "";
  const dir = opts.desc ? "DESC" : "ASC";
  const offset = checkedOffset(opts.page, opts.pageSize);
  const [rows, count] = await db.batch([
    db
      .prepare(
        `SELECT ${opts.select} FROM ${opts.from} ${whereSql} ORDER BY ${opts.orderBy} ${dir}, ${opts.tiebreak ?? "id"} ${dir} LIMIT ? OFFSET ?`,
      )
      .bind(...opts.where.params, opts.pageSize, offset),
    db
      .prepare(
        `SELECT count(*) AS total${opts.totals ? `, ${opts.totals}` : ""} FROM ${opts.countFrom ?? opts.from} ${whereSql}`,
      )
      .bind(...opts.where.params),
  ]);
  const agg = (count?.results[0] ?? { total: 0 }) as Record<string, number>;
  const { total, ...totals } = agg;
  return {
    rows: (rows?.results ?? []) as T[],
    total: total ?? 0,
    page: opts.page,
    pageSize: opts.pageSize,
    totals: opts.totals ? totals : null,
  };
}
