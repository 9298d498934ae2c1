/** Server-only: the colour scheme the request's cookie asks for (src/lib/theme.ts). */

import { getRequest } from "@tanstack/react-start/server";
import { type Theme, themeFromCookies } from "../lib/theme";

export function requestTheme(): Theme {
  return themeFromCookies(getRequest().headers.get("cookie"));
}
