import { createFileRoute } from "@tanstack/react-router";
import { PlanPage } from "~/features/plans/plan-page";
import { or404 } from "~/lib/loaders";

export const Route = createFileRoute("/_authed/recurring/$planId/")({
  loader: ({ context, params }) =>
    or404(context.queryClient.ensureQueryData(context.trpc.plans.byId.queryOptions({ id: params.planId }))),
  head: () => ({ meta: [{ title: "Recurring plan · Almoner" }] }),
  component: PlanPage,
});
