/**
 * The router context's `trpc`, without tRPC in the entry chunk. Route loaders and validators live
 * in the entry (TanStack Start splits only route components), so importing src/lib/trpc.ts from
 * the router would make every page, /login included, download @trpc/client, the options proxy and
 * superjson. Instead `trpc` forwards to the real proxy once `loadTrpc()` has run: the `_authed`
 * layout's beforeLoad and the two public loaders that read through tRPC await it first.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { AppRouter } from "../../worker/trpc/router";

export function lazyTrpc(queryClient: QueryClient) {
  let real: TRPCOptionsProxy<AppRouter> | undefined;
  let loading: Promise<void> | undefined;
  const loadTrpc = () =>
    (loading ??= import("./trpc").then((m) => {
      real = m.trpcFor(queryClient).proxy;
    }));
  const trpc = new Proxy({} as TRPCOptionsProxy<AppRouter>, {
    get(_target, key) {
      // Not a thenable, and inspection by symbol stays harmless before loading.
      if (!real && (key === "then" || typeof key === "symbol")) return undefined;
      if (!real) throw new Error("context.trpc read before context.loadTrpc() resolved");
      return Reflect.get(real, key);
    },
  });
  return { trpc, loadTrpc };
}
