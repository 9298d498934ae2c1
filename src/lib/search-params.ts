/**
 * URL search schemas (DESIGN §4: filters, sort and page live in the URL, validated by zod). Every
 * value falls back (to its default, or to "no filter") so a hand-edited or stale link never errors.
 * Pure: no React, so the Worker tests can exercise it.
 */
// zod/mini (tree-shakable) keeps the URL schemas out of the shared bundle's weight: every route's
// search schema is evaluated in the main chunk, so the classic API would load on /login too.

import { calendarDay } from "@core/schemas";
import { z } from "zod/mini";

/** An optional URL value; a malformed one drops the filter instead of erroring. */
export function opt<T extends z.ZodMiniType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}

/** A URL value with a default, which also replaces a malformed value. */
export function withDefault<T extends z.ZodMiniType>(schema: T, value: z.output<T> & {}) {
  return z._default(z.catch(schema, value), value as never);
}

/**
 * The values a search schema gives an empty URL: its defaults (page 1, 25 rows, the default sort,
 * …), which a link need not spell. Read from the schema itself, so a default is written once.
 */
export function searchDefaults(schema: z.ZodMiniType): Record<string, unknown> {
  const empty = z.parse(schema, {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(empty).filter(([, v]) => v !== undefined));
}

/** `YYYY-MM-DD` (an organization-local day the API takes: core/schemas.ts), optional. */
export const dayParam = opt(calendarDay);
/** Free text up to `max` characters, optional. */
export const textParam = (max: number) => opt(z.string().check(z.maxLength(max)));
/** A whole number ≥ 0, optional. */
export const minorParam = opt(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)));
/** A flag, optional. */
export const flagParam = opt(z.boolean());

/** The URL search schema every list route starts from (page, pageSize, sort, desc, q). */
export const listSearch = z.object({
  page: withDefault(z.int().check(z.minimum(1)), 1),
  pageSize: withDefault(z.union([z.literal(10), z.literal(25), z.literal(50), z.literal(100)]), 25),
  sort: z.optional(z.string()),
  desc: withDefault(z.boolean(), true),
  q: z.optional(z.string()),
});
/** Alias under the name the issue uses. */
export const listSearchSchema = listSearch;
export type ListState = z.infer<typeof listSearch>;

/** A list's page and order, as its list query takes them beside the filters. */
export function pageOf<T extends ListState>(s: T): Pick<T, "page" | "pageSize" | "sort" | "desc"> {
  return { page: s.page, pageSize: s.pageSize, sort: s.sort, desc: s.desc };
}

/** A multi-select facet in the URL (`?status=["active","paused"]`); unknown values drop the filter. */
export function facetParam<const T extends readonly [string, ...string[]]>(values: T) {
  // Bounded like the API's enumSet (core/schemas.ts): a longer list drops the filter.
  return opt(z.array(z.enum(values)).check(z.maxLength(values.length)));
}

/** One value of a fixed set, optional (an unknown value drops the filter). */
export function enumParam<const T extends readonly [string, ...string[]]>(values: T) {
  return opt(z.enum(values));
}

/**
 * `listSearch` with a whitelisted sort (default when missing or unknown) and the list's filters:
 *   listSearchWith(["created", "name"], "created", { status: facetParam(statuses) })
 */
export function listSearchWith<
  const S extends readonly [string, ...string[]],
  F extends Record<string, z.ZodMiniType>,
>(sorts: S, defaultSort: S[number], filters: F) {
  return z.extend(listSearch, {
    sort: withDefault(z.enum(sorts), defaultSort as never),
    ...filters,
  });
}
