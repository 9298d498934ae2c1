import { createFileRoute } from "@tanstack/react-router";
import { DonorEditPage } from "~/features/donors/donor-edit-page";
import { or404 } from "~/lib/loaders";

export const Route = createFileRoute("/_authed/donors/$donorId/edit")({
  loader: ({ context, params }) =>
    or404(context.queryClient.ensureQueryData(context.trpc.donors.byId.queryOptions({ id: params.donorId }))),
  head: () => ({ meta: [{ title: "Edit donor · Almoner" }] }),
  component: DonorEditPage,
});
