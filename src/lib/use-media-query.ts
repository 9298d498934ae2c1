import * as React from "react";

/**
 * Whether a media query matches, or `undefined` while it cannot be known (server rendering and
 * hydration). Callers render both variants with CSS breakpoints while it is `undefined`, so the
 * server's HTML is right at every width (no layout flash), and only the matching one afterwards.
 */
export function useMediaQuery(query: string): boolean | undefined {
  const subscribe = React.useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return React.useSyncExternalStore<boolean | undefined>(
    subscribe,
    () => window.matchMedia(query).matches,
    () => undefined,
  );
}

/** Tailwind's `sm` breakpoint: below it lists show cards and filters move into a sheet. */
export const SM_UP = "(min-width: 640px)";
