/**
 * URL state of list screens (DESIGN §4: filters, sort and page live in the URL, validated by zod).
 * Every value `.catch`es so a hand-edited or stale link falls back to defaults instead of erroring.
 */
import { type SearchMiddleware, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import type { z } from "zod/mini";
import { type ListState, searchDefaults } from "~/lib/search-params";

export * from "~/lib/search-params";

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

/**
 * A route's `search` option that keeps its defaults out of the URL: a filter change writes
 * `?tagId=…`, not `?page=1&pageSize=25&sort=created&desc=true&tagId=…`, so shared links say only
 * what was chosen. An empty value still reads as the default (the schema supplies it).
 *   createFileRoute(…)({ validateSearch: donorsSearch, search: stripDefaults(donorsSearch) })
 * The router's own `stripSearchParams` does this with a deep comparison; it costs 86 bytes gzip
 * more in the entry chunk, where /login had about a hundred left of its 150 KiB (decision 012),
 * and every default here is a string, number or boolean, so `===` is the comparison.
 */
export function stripDefaults<T extends z.ZodMiniType>(schema: T) {
  const defaults = searchDefaults(schema);
  const strip: SearchMiddleware<z.output<T>> = ({ search, next }) => {
    const out: Record<string, unknown> = { ...(next(search) as object) };
    for (const key in defaults) if (out[key] === defaults[key]) delete out[key];
    return out as z.output<T>;
  };
  return { middlewares: [strip] };
}
