/**
 * False while the server renders and while React hydrates its HTML, true from then on (and at
 * once on a page reached in the browser): what a control needs before its click can do anything.
 */
import * as React from "react";

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return React.useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
