/** Server-only: the in-process tRPC link SSR uses (no HTTP hop, same context as /api/trpc). */

import { env } from "cloudflare:workers";
import { getRequest } from "@tanstack/react-start/server";
import { unstable_localLink } from "@trpc/client";
import superjson from "superjson";
import { createContext } from "../../worker/trpc/context";
import { appRouter } from "../../worker/trpc/router";

export function localLink() {
  return unstable_localLink({
    router: appRouter,
    transformer: superjson,
    createContext: () => createContext({ request: getRequest(), env, resHeaders: new Headers() }),
  });
}
