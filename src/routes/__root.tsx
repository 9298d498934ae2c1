/// <reference types="vite/client" />
import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, HeadContent, Outlet, Scripts } from "@tanstack/react-router";
import type { TRPCOptionsProxy } from "@trpc/tanstack-react-query";
import * as React from "react";
import { UrlNotice } from "~/components/layout/url-notice";
import { readTheme, type Theme, useTheme } from "~/lib/theme";
import { useHydrated } from "~/lib/use-hydrated";
import appCss from "~/styles.css?url";
import type { AppRouter } from "../../worker/api-router";

export interface RouterContext {
  queryClient: QueryClient;
  /** Usable once `loadTrpc()` has resolved (src/lib/trpc-lazy.ts); components use `useTRPC()`. */
  trpc: TRPCOptionsProxy<AppRouter>;
  /** Loads the tRPC client chunk; `_authed`'s beforeLoad and the public tRPC loaders await it. */
  loadTrpc: () => Promise<void>;
}

/** What the browser draws before the stylesheet: the chosen scheme, or both for "system". */
const colorSchemeMeta = (theme: Theme) => (theme === "system" ? "light dark" : theme);

export const Route = createRootRouteWithContext<RouterContext>()({
  // The visitor's colour scheme (src/lib/theme.ts), read from its cookie so SSR paints it first.
  beforeLoad: async () => ({ theme: await readTheme() }),
  head: ({ match }) => ({
    meta: [
      { charSet: "utf-8" },
      { name: "viewport", content: "width=device-width, initial-scale=1" },
      { title: "Almoner" },
      { name: "description", content: "Almoner: campaigns, donors and donations for nonprofit teams." },
      { name: "color-scheme", content: colorSchemeMeta(match.context.theme) },
    ],
    links: [
      { rel: "stylesheet", href: appCss },
      { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
    ],
  }),
  shellComponent: RootDocument,
  component: RootComponent,
});

function RootComponent() {
  return (
    <>
      <Outlet />
      <UrlNotice />
    </>
  );
}

function RootDocument({ children }: { children: React.ReactNode }) {
  // Marks the document once its buttons work: end-to-end tests wait for it before clicking. A
  // route's Suspense boundary hydrates after the root, so the mark waits for its buttons too.
  const hydrated = useHydrated();
  React.useEffect(() => {
    if (!hydrated) return;
    const settled = () => {
      if (document.querySelector("[data-hydrating]")) return false;
      document.documentElement.dataset.hydrated = "true";
      return true;
    };
    if (settled()) return;
    const watch = new MutationObserver(() => settled() && watch.disconnect());
    watch.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-hydrating"],
    });
    return () => watch.disconnect();
  }, [hydrated]);
  const theme = useTheme();
  return (
    <html lang="en" data-theme={theme} suppressHydrationWarning>
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
