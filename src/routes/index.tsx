import { createFileRoute, redirect } from "@tanstack/react-router";
import { FullScreenSpinner } from "~/components/layout/full-screen-spinner";
import { sessionQueryOptions } from "~/lib/auth/session";

/**
 * SPEC §2: "/" shows the full-screen "Initializing..." spinner while the session check runs, then
 * goes to /dashboard or /login. It renders on the client only, so the check is the browser's own.
 */
export const Route = createFileRoute("/")({
  ssr: false,
  pendingMs: 0,
  pendingComponent: () => <FullScreenSpinner label="Initializing..." />,
  beforeLoad: async ({ context }) => {
    const snapshot = await context.queryClient.fetchQuery(sessionQueryOptions());
    throw redirect({ to: snapshot.payload?.user ? "/dashboard" : "/login", replace: true });
  },
  component: () => <FullScreenSpinner label="Initializing..." />,
});
