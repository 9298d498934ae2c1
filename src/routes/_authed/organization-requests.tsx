import { createFileRoute } from "@tanstack/react-router";
import { RequestsPage } from "~/features/onboarding/requests-page";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/organization-requests")({
  beforeLoad: ({ context }) => requireAdmin(context),
  loader: ({ context }) =>
    context.queryClient.ensureQueryData(context.trpc.onboarding.requests.queryOptions()),
  head: () => ({ meta: [{ title: "Organization requests · Almoner" }] }),
  component: RequestsPage,
});
