/** Server-only: the in-process tRPC link SSR uses (no HTTP hop, same context as /api/trpc). */

import { env } from "cloudflare:workers";
import { getRequest } from "@tanstack/react-start/server";
import { unstable_localLink } from "@trpc/client";
import superjson from "superjson";
import { appRouter } from "../../worker/api-router";
import { createContext } from "../../worker/trpc/context";
import { pageCookies } from "./page-cookies";

export function localLink() {
  return unstable_localLink({
    router: appRouter,
    transformer: superjson,
    // The page's session read, shared with readServerAuth (one per request), sends its cookies on the page.
    createContext: () =>
      createContext({ request: getRequest(), env, resHeaders: new Headers(), cookies: pageCookies }),
  });
}
