/** Server-only: Set-Cookie lines for the page being rendered (a session slid by its read). */

import { appendResponseHeader } from "@tanstack/react-start/server";
import type { CookieSink } from "../../worker/auth";

export const pageCookies: CookieSink = {
  append: (name, value) => appendResponseHeader(name, value),
};
