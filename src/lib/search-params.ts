/**
 * URL search schemas (DESIGN §4: filters, sort and page live in the URL, validated on read). Every
 * value falls back (to its default, or to "no filter") so a hand-edited or stale link never errors.
 * Pure: no React, so the Worker tests can exercise it.
 *
 * Hand-written rather than zod: every route's validateSearch runs in the entry chunk that every
 * page loads (/login included), and even zod/mini cost ~14 KB gzip there. A schema here is a
 * TanStack Router validator adapter (`parse` + phantom `types`), so routes infer the same input
 * (every key optional) and output types as before.
 */

/** Reads one URL value; never throws: a missing or malformed value gives `undefined`. */
export type Param<T> = (value: unknown) => T;
type Shape = Record<string, Param<unknown>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: undefined extends ReturnType<S[K]> ? K : never;
}[keyof S];

/** What `parse` returns: keys that may be undefined are optional, defaulted keys are required. */
export type SearchOutput<S extends Shape> = Simplify<
  { [K in OptionalKeys<S>]?: ReturnType<S[K]> } & {
    [K in Exclude<keyof S, OptionalKeys<S>>]: ReturnType<S[K]>;
  }
>;
/** What links and `navigate` may pass: every key optional (defaults fill the rest). */
export type SearchInput<S extends Shape> = { [K in keyof S]?: ReturnType<S[K]> | undefined };

export interface SearchSchema<S extends Shape> {
  readonly shape: S;
  /** Type-level only (TanStack Router's ValidatorAdapter): never read at run time. */
  readonly types: { input: SearchInput<S>; output: SearchOutput<S> };
  /** Keeps the shape's keys only; absent or malformed values fall back, nothing throws. */
  parse(input: unknown): SearchOutput<S>;
}

/** A URL search schema from per-key readers (unknown keys are dropped). */
export function searchSchema<S extends Shape>(shape: S): SearchSchema<S> {
  return {
    shape,
    types: undefined as never,
    parse(input) {
      const src = (input !== null && typeof input === "object" ? input : {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(shape)) {
        const value = (shape[key] as Param<unknown>)(src[key]);
        if (value !== undefined) out[key] = value;
      }
      return out as SearchOutput<S>;
    },
  };
}

/** `schema` with keys added or replaced. */
export function extendSearch<S extends Shape, E extends Shape>(
  schema: SearchSchema<S>,
  extra: E,
): SearchSchema<Simplify<Omit<S, keyof E> & E>> {
  return searchSchema({ ...schema.shape, ...extra } as Simplify<Omit<S, keyof E> & E>);
}

/** A value with a default, which also replaces a malformed value. */
export function withDefault<T>(param: Param<T | undefined>, value: NoInfer<T>): Param<T> {
  return (v) => {
    const read = param(v);
    return read === undefined ? value : read;
  };
}

/** Any string, optional. */
export const stringParam: Param<string | undefined> = (v) => (typeof v === "string" ? v : undefined);
/** A string the link cannot work without: a missing one shows the route's error screen. */
export const requiredStringParam: Param<string> = (v) => {
  if (typeof v !== "string") throw new Error("This link is missing a parameter.");
  return v;
};
/** A string of `min`..`max` characters, optional. */
export const textParam =
  (max: number, min = 0): Param<string | undefined> =>
  (v) =>
    typeof v === "string" && v.length >= min && v.length <= max ? v : undefined;
/** `YYYY-MM-DD` (an organization-local day), optional. */
export const dayParam: Param<string | undefined> = (v) =>
  typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined;
/** A safe integer in [min, max], optional. */
export const intParam =
  (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Param<number | undefined> =>
  (v) =>
    typeof v === "number" && Number.isSafeInteger(v) && v >= min && v <= max ? v : undefined;
/** A whole number ≥ 0, optional. */
export const minorParam = intParam(0);
/** A flag, optional. */
export const flagParam: Param<boolean | undefined> = (v) => (typeof v === "boolean" ? v : undefined);

/** One value of a fixed set, optional (an unknown value drops the filter). */
export function enumParam<const T extends readonly (string | number)[]>(
  values: T,
): Param<T[number] | undefined> {
  return (v) => (values.includes(v as T[number]) ? (v as T[number]) : undefined);
}

/** A multi-select facet in the URL (`?status=["active","paused"]`); unknown values drop the filter. */
export function facetParam<const T extends readonly string[]>(values: T): Param<T[number][] | undefined> {
  return (v) =>
    Array.isArray(v) && v.every((x) => values.includes(x as T[number])) ? (v as T[number][]) : undefined;
}

/** The URL search schema every list route starts from (page, pageSize, sort, desc, q). */
export const listSearch = searchSchema({
  page: withDefault(intParam(1), 1),
  pageSize: withDefault(enumParam([10, 25, 50, 100]), 25),
  sort: stringParam,
  desc: withDefault(flagParam, true),
  q: stringParam,
});
/** Alias under the name the issue uses. */
export const listSearchSchema = listSearch;
export type ListState = SearchOutput<typeof listSearch.shape>;

/**
 * `listSearch` with a whitelisted sort (default when missing or unknown) and the list's filters:
 *   listSearchWith(["created", "name"], "created", { status: facetParam(statuses) })
 */
export function listSearchWith<const S extends readonly [string, ...string[]], F extends Shape>(
  sorts: S,
  defaultSort: S[number],
  filters: F,
) {
  return extendSearch(listSearch, { sort: withDefault(enumParam(sorts), defaultSort), ...filters });
}
