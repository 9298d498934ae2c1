/**
 * The colour scheme a visitor chose in /settings: "system" (the operating system's, live), "light"
 * or "dark". Remembered in a cookie (a year), so the server renders <html data-theme> right on the
 * first paint with no inline script (the CSP stays strict, decision 021); src/styles.css turns the
 * attribute into colours and `color-scheme`. Changing it applies at once, without a reload.
 */
import { useRouteContext } from "@tanstack/react-router";
import { createIsomorphicFn } from "@tanstack/react-start";
import * as React from "react";

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
const THEME_COOKIE = "almoner-theme";
const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The theme in a Cookie header (or document.cookie); anything else is "system". */
export function themeFromCookies(header: string | null | undefined): Theme {
  for (const part of (header ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === THEME_COOKIE)
      return (THEMES as readonly string[]).includes(value ?? "") ? (value as Theme) : "system";
  }
  return "system";
}

/** The theme of the request being rendered (server) or of this browser (client). */
export const readTheme = createIsomorphicFn()
  .server(async (): Promise<Theme> => (await import("../server/theme")).requestTheme())
  .client(async (): Promise<Theme> => themeFromCookies(document.cookie));

const listeners = new Set<() => void>();

/** Remember the choice and apply it to the page now. */
export function setTheme(theme: Theme) {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari.
  document.cookie = `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${secure}`;
  document.documentElement.dataset.theme = theme;
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The chosen theme: the page's attribute in the browser, the request's cookie on the server. */
export function useTheme(): Theme {
  const rendered = useRouteContext({ from: "__root__", select: (c) => c.theme });
  return React.useSyncExternalStore(
    subscribe,
    () => (document.documentElement.dataset.theme as Theme | undefined) ?? rendered,
    () => rendered,
  );
}
