/**
 * tRPC on the client: the browser batches over HTTP; SSR calls the router in-process through a
 * local link loaded lazily from src/server (so no server code reaches the browser bundle).
 */
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
import { createTRPCContext } from "@trpc/tanstack-react-query";
import superjson from "superjson";
import type { AppRouter } from "../../worker/trpc/router";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

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
        transformer: superjson,
        fetch: (url, init) => fetch(url, { ...init, credentials: "include" }),
      }),
  );

export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({ links: [terminatingLink()] });
}

export type TrpcClient = ReturnType<typeof makeTrpcClient>;
