/**
 * URL state of list screens (DESIGN §4: filters, sort and page live in the URL, validated by zod).
 * Every value `.catch`es so a hand-edited or stale link falls back to defaults instead of erroring.
 */
import { useNavigate } from "@tanstack/react-router";
import * as React from "react";
import type { ListState } from "~/lib/search-params";

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
