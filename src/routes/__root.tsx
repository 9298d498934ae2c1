/// <reference types="vite/client" />
import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, HeadContent, Outlet, Scripts } from "@tanstack/react-router";
import type { TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import * as React from "react";
import appCss from "~/styles.css?url";
import type { AppRouter } from "../../worker/trpc/router";

export interface RouterContext {
  queryClient: QueryClient;
  /** Usable once `loadTrpc()` has resolved (src/lib/trpc-lazy.ts); components use `useTRPC()`. */
  trpc: TRPCOptionsProxy<AppRouter>;
  /** Loads the tRPC client chunk; `_authed`'s beforeLoad and the public tRPC loaders await it. */
  loadTrpc: () => Promise<void>;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  head: () => ({
    meta: [
      { charSet: "utf-8" },
      { name: "viewport", content: "width=device-width, initial-scale=1" },
      { title: "Almoner" },
      { name: "description", content: "Almoner: campaigns, donors and donations for nonprofit teams." },
      { name: "color-scheme", content: "light dark" },
    ],
    links: [
      { rel: "stylesheet", href: appCss },
      { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
    ],
  }),
  shellComponent: RootDocument,
  component: Outlet,
});

function RootDocument({ children }: { children: React.ReactNode }) {
  // Marks the document once React has hydrated: end-to-end tests wait for it before clicking.
  React.useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <HeadContent />
      </head>
      <body className="min-h-dvh bg-background font-sans text-foreground antialiased">
        {children}
        <Scripts />
      </body>
    </html>
  );
}
