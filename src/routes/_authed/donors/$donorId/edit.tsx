import { createFileRoute } from "@tanstack/react-router";
import { DonorEditPage } from "~/features/donors/donor-edit-page";
import { requireCan } from "~/lib/auth/guards";
import { or404 } from "~/lib/loaders";

export const Route = createFileRoute("/_authed/donors/$donorId/edit")({
  beforeLoad: ({ context, params }) =>
    requireCan(context, { donor: ["update"] }, `/donors/${params.donorId}`),
  loader: ({ context, params }) =>
    or404(context.queryClient.ensureQueryData(context.trpc.donors.byId.queryOptions({ id: params.donorId }))),
  head: () => ({ meta: [{ title: "Edit donor · Almoner" }] }),
  component: DonorEditPage,
});
