import { createRouter } from "@tanstack/react-router";
import { setupRouterSsrQueryIntegration } from "@tanstack/react-router-ssr-query";
import { ErrorScreen, NotFoundScreen, requestIdOf } from "~/components/layout/error-screens";
import { FullScreenSpinner } from "~/components/layout/full-screen-spinner";
import { makeQueryClient } from "~/lib/query-client";
import { lazyTrpc } from "~/lib/trpc-lazy";
import { routeTree } from "./routeTree.gen";

export async function getRouter() {
  // The page's CSP nonce (docs/decisions/021): the router stamps it on every script and style it
  // renders on the server; in the browser it reads it back from the page's csp-nonce meta tag.
  const nonce = import.meta.env.SSR ? (await import("./server/csp-nonce")).requestNonce() : undefined;
  const queryClient = makeQueryClient();
  const { trpc, loadTrpc } = lazyTrpc(queryClient);

  const router = createRouter({
    routeTree,
    context: { queryClient, trpc, loadTrpc },
    defaultPreload: "intent",
    // Loaders read through TanStack Query, which owns freshness; the router must not cache twice.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    ssr: { nonce },
    defaultPendingComponent: () => <FullScreenSpinner label="Loading..." />,
    defaultErrorComponent: ({ error, reset }) => (
      <ErrorScreen
        message={import.meta.env.DEV && error instanceof Error ? error.message : undefined}
        onRetry={reset}
        requestId={requestIdOf(error)}
      />
    ),
    defaultNotFoundComponent: () => <NotFoundScreen />,
  });
  setupRouterSsrQueryIntegration({ router, queryClient });
  return router;
}

declare module "@tanstack/react-router" {
  interface Register {
    router: Awaited<ReturnType<typeof getRouter>>;
  }
}
