import { createFileRoute } from "@tanstack/react-router";
import { DonationEditPage } from "~/features/donations/donation-edit-page";
import { requireCan } from "~/lib/auth/guards";
import { or404 } from "~/lib/loaders";

export const Route = createFileRoute("/_authed/donations/$donationId/edit")({
  beforeLoad: ({ context, params }) =>
    requireCan(context, { donation: ["update"] }, `/donations/${params.donationId}`),
  loader: ({ context, params }) =>
    or404(
      context.queryClient.ensureQueryData(
        context.trpc.donations.byId.queryOptions({ id: params.donationId }),
      ),
    ),
  head: () => ({ meta: [{ title: "Edit donation · Almoner" }] }),
  component: DonationEditPage,
});
