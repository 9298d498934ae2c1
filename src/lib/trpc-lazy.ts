/**
 * The router context's `trpc`, without tRPC in the entry chunk. Route loaders and validators live
 * in the entry (TanStack Start splits only route components), so importing src/lib/trpc.ts from
 * the router would make every page, /login included, download @trpc/client, the options proxy and
 * superjson. Instead `trpc` forwards to the real proxy once src/lib/trpc.ts has been evaluated:
 * route components import it, and `loadTrpc()` imports it for loaders that run before any such
 * component (the `_authed` layout's beforeLoad and the two public loaders that read through tRPC).
 */
import type { QueryClient } from "@tanstack/react-query";
import type { TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import type { AppRouter } from "../../worker/api-router";

type OptionsProxy = TRPCOptionsProxy<AppRouter>;

let factory: ((queryClient: QueryClient) => { proxy: OptionsProxy }) | undefined;

/** Called once by src/lib/trpc.ts when it is evaluated. */
export function provideTrpc(make: (queryClient: QueryClient) => { proxy: OptionsProxy }) {
  factory = make;
}

export function lazyTrpc(queryClient: QueryClient) {
  let real: OptionsProxy | undefined;
  const resolve = () => (real ??= factory?.(queryClient).proxy);
  const trpc = new Proxy({} as OptionsProxy, {
    get(_target, key) {
      const target = resolve();
      // Not a thenable, and inspection by symbol stays harmless before loading.
      if (!target && (key === "then" || typeof key === "symbol")) return undefined;
      if (!target) throw new Error("context.trpc read before context.loadTrpc() resolved");
      return Reflect.get(target, key);
    },
  });
  const loadTrpc = async () => {
    await import("./trpc");
  };
  return { trpc, loadTrpc };
}
