/**
 * URL state of list screens (DESIGN §4: filters, sort and page live in the URL, validated by zod).
 * Every value `.catch`es so a hand-edited or stale link falls back to defaults instead of erroring.
 */
import { useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { z } from "zod";

/** The URL search schema every list route starts from (page, pageSize, sort, desc, q). */
export const listSearch = z.object({
  page: z.number().int().min(1).catch(1).default(1),
  pageSize: z
    .union([z.literal(10), z.literal(25), z.literal(50), z.literal(100)])
    .catch(25)
    .default(25),
  sort: z.string().optional(),
  desc: z.boolean().catch(true).default(true),
  q: z.string().optional(),
});
/** Alias under the name the issue uses. */
export const listSearchSchema = listSearch;
export type ListState = z.infer<typeof listSearch>;

/** A multi-select facet in the URL (`?status=["active","paused"]`); unknown values drop the filter. */
export function facetParam<const T extends readonly [string, ...string[]]>(values: T) {
  return z.array(z.enum(values)).optional().catch(undefined);
}

/**
 * `listSearch` with a whitelisted sort (default when missing or unknown) and the list's filters:
 *   listSearchWith(["created", "name"], "created", { status: facetParam(statuses) })
 */
export function listSearchWith<const S extends readonly [string, ...string[]], F extends z.ZodRawShape>(
  sorts: S,
  defaultSort: S[number],
  filters: F,
) {
  return listSearch.extend({
    sort: z.enum(sorts).catch(defaultSort).default(defaultSort),
    ...filters,
  });
}

/**
 * Reads a list route's search and returns a setter that merges a patch into the URL (history
 * `replace` for typing in the search box is left to the router's defaults: each change is a step).
 *   const [s, setS] = useListState(Route);
 */
export function useListState<T extends ListState>(route: {
  useSearch: () => T;
}): [T, (next: Partial<T>) => void] {
  const search = route.useSearch();
  const navigate = useNavigate();
  const set = React.useCallback(
    (next: Partial<T>) => {
      // `to: "."` keeps the current route; the search reducer merges the patch into the URL state.
      void navigate({ to: ".", search: (prev: Record<string, unknown>) => ({ ...prev, ...next }) } as never);
    },
    [navigate],
  );
  return [search, set];
}
