import { createRouter } from "@tanstack/react-router";
import { setupRouterSsrQueryIntegration } from "@tanstack/react-router-ssr-query";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { ErrorScreen, NotFoundScreen } from "~/components/layout/error-screens";
import { FullScreenSpinner } from "~/components/layout/full-screen-spinner";
import { makeQueryClient } from "~/lib/query-client";
import { makeTrpcClient, TRPCProvider } from "~/lib/trpc";
import type { AppRouter } from "../worker/trpc/router";
import { routeTree } from "./routeTree.gen";

export function getRouter() {
  const queryClient = makeQueryClient();
  const trpcClient = makeTrpcClient();
  const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

  const router = createRouter({
    routeTree,
    context: { queryClient, trpc },
    defaultPreload: "intent",
    // Loaders read through TanStack Query, which owns freshness; the router must not cache twice.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultPendingComponent: () => <FullScreenSpinner label="Loading..." />,
    defaultErrorComponent: ({ error, reset }) => (
      <ErrorScreen
        message={import.meta.env.DEV && error instanceof Error ? error.message : undefined}
        onRetry={reset}
      />
    ),
    defaultNotFoundComponent: () => <NotFoundScreen />,
    Wrap: ({ children }) => (
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    ),
  });
  setupRouterSsrQueryIntegration({ router, queryClient });
  return router;
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof getRouter>;
  }
}
