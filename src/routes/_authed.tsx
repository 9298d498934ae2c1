import { useQueryClient } from "@tanstack/react-query";
import { createFileRoute, type ErrorComponentProps, useRouter } from "@tanstack/react-router";
import { ErrorScreen, requestIdOf } from "~/components/layout/error-screens";
import { AuthedLayout } from "~/features/shell/authed-layout";
import { ACCESS_CHECK_FAILED_MESSAGE } from "~/lib/auth/access-check";
import { requireUser } from "~/lib/auth/guards";
import { sessionQueryOptions } from "~/lib/auth/session";

export const Route = createFileRoute("/_authed")({
  beforeLoad: async ({ context, location }) => {
    // Every portal loader reads through context.trpc: load its chunk alongside the session check.
    const [payload] = await Promise.all([requireUser(context, location), context.loadTrpc()]);
    return { user: payload.user, session: payload.session, capabilities: payload.capabilities };
  },
  errorComponent: AuthedError,
  component: AuthedLayout,
});

/**
 * A role user's failed access check (decision 044) is an error with a retry that asks again, not
 * "no access"; anything else is the router's usual error screen.
 */
function AuthedError({ error, reset }: ErrorComponentProps) {
  const queryClient = useQueryClient();
  const router = useRouter();
  if (error instanceof Error && error.message === ACCESS_CHECK_FAILED_MESSAGE)
    return (
      <ErrorScreen
        title="Access not checked"
        message={ACCESS_CHECK_FAILED_MESSAGE}
        onRetry={async () => {
          await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
          reset();
          await router.invalidate();
        }}
      />
    );
  return (
    <ErrorScreen
      message={import.meta.env.DEV && error instanceof Error ? error.message : undefined}
      onRetry={reset}
      requestId={requestIdOf(error)}
    />
  );
}
