/**
 * tRPC on the client: the browser batches over HTTP; SSR calls the router in-process through a
 * local link loaded lazily from src/server (so no server code reaches the browser bundle).
 *
 * This module (with @trpc/client, the options proxy and superjson) is not part of the entry chunk:
 * route components import it, and the router context forwards to it (src/lib/trpc-lazy.ts), so
 * pages that read nothing through tRPC (/login) never download it. One client and one options proxy
 * per QueryClient, shared by loaders (`context.trpc`) and components (`useTRPC`).
 */

import { TRPC_MAX_BATCH } from "@core/limits";
import type { QueryClient } from "@tanstack/react-query";
import { useRouter } from "@tanstack/react-router";
import { createIsomorphicFn } from "@tanstack/react-start";
import {
  createTRPCClient,
  httpBatchLink,
  type Operation,
  type OperationLink,
  TRPCClientError,
  type TRPCLink,
} from "@trpc/client";
import { observable } from "@trpc/server/observable";
import { createTRPCOptionsProxy, type TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import superjson from "superjson";
import type { AppRouter } from "../../worker/api-router";
import { provideTrpc } from "./trpc-lazy";

/** Defers loading a link until the first operation (the SSR local link imports the worker). */
function lazyLink(load: () => Promise<TRPCLink<AppRouter>>): TRPCLink<AppRouter> {
  return (runtime) => {
    let ready: Promise<OperationLink<AppRouter>> | null = null;
    return ({ op, next }: { op: Operation; next: Parameters<OperationLink<AppRouter>>[0]["next"] }) =>
      observable((observer) => {
        ready ??= load().then((link) => link(runtime));
        let unsubscribe: (() => void) | undefined;
        let closed = false;
        ready.then(
          (operationLink) => {
            if (closed) return;
            const sub = operationLink({ op, next }).subscribe(observer);
            unsubscribe = () => sub.unsubscribe();
          },
          (error) => observer.error(TRPCClientError.from(error)),
        );
        return () => {
          closed = true;
          unsubscribe?.();
        };
      });
  };
}

const terminatingLink = createIsomorphicFn()
  .server(
    (): TRPCLink<AppRouter> => lazyLink(() => import("../server/trpc-local").then((m) => m.localLink())),
  )
  .client(
    (): TRPCLink<AppRouter> =>
      httpBatchLink({
        url: "/api/trpc",
        // The server refuses longer batches (core/limits.ts).
        maxItems: TRPC_MAX_BATCH,
        transformer: superjson,
        fetch: (url, init) => fetch(url, { ...init, credentials: "include" }),
      }),
  );

function makeTrpcClient() {
  return createTRPCClient<AppRouter>({ links: [terminatingLink()] });
}

type TrpcClient = ReturnType<typeof makeTrpcClient>;

interface Trpc {
  client: TrpcClient;
  proxy: TRPCOptionsProxy<AppRouter>;
}

// Keyed by the router's QueryClient: one per request on the server, one per page in the browser.
const byQueryClient = new WeakMap<QueryClient, Trpc>();

/** The tRPC client and options proxy that go with `queryClient` (created on first use). */
function trpcFor(queryClient: QueryClient): Trpc {
  let trpc = byQueryClient.get(queryClient);
  if (!trpc) {
    const client = makeTrpcClient();
    trpc = { client, proxy: createTRPCOptionsProxy<AppRouter>({ client, queryClient }) };
    byQueryClient.set(queryClient, trpc);
  }
  return trpc;
}

provideTrpc(trpcFor);

function useRouterQueryClient(): QueryClient {
  return useRouter().options.context.queryClient;
}

/** The options proxy (`trpc.donations.list.queryOptions(…)`), the same one loaders read. */
export function useTRPC(): TRPCOptionsProxy<AppRouter> {
  return trpcFor(useRouterQueryClient()).proxy;
}

/** The plain client, for imperative calls (`client.donors.export.query(…)`). */
export function useTRPCClient(): TrpcClient {
  return trpcFor(useRouterQueryClient()).client;
}
