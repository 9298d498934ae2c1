import { createFileRoute } from "@tanstack/react-router";
import { DonorPage } from "~/features/donors/donor-page";
import { or404 } from "~/lib/loaders";

export const Route = createFileRoute("/_authed/donors/$donorId/")({
  loader: ({ context, params }) =>
    or404(context.queryClient.ensureQueryData(context.trpc.donors.byId.queryOptions({ id: params.donorId }))),
  head: () => ({ meta: [{ title: "Donor · Almoner" }] }),
  component: RouteComponent,
});

function RouteComponent() {
  const { donorId } = Route.useParams();
  return <DonorPage donorId={donorId} />;
}
