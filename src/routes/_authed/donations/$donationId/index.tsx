import { createFileRoute } from "@tanstack/react-router";
import { DonationPage } from "~/features/donations/donation-page";
import { or404 } from "~/lib/loaders";

export const Route = createFileRoute("/_authed/donations/$donationId/")({
  loader: ({ context, params }) =>
    or404(
      context.queryClient.ensureQueryData(
        context.trpc.donations.byId.queryOptions({ id: params.donationId }),
      ),
    ),
  head: () => ({ meta: [{ title: "Donation · Almoner" }] }),
  component: DonationPage,
});
