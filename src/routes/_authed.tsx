import { createFileRoute } from "@tanstack/react-router";
import { AuthedLayout } from "~/features/shell/authed-layout";
import { requireUser } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed")({
  beforeLoad: async ({ context, location }) => {
    // Every portal loader reads through context.trpc: load its chunk alongside the session check.
    const [payload] = await Promise.all([requireUser(context, location), context.loadTrpc()]);
    return { user: payload.user, session: payload.session, capabilities: payload.capabilities };
  },
  component: AuthedLayout,
});
