import { createFileRoute, redirect } from "@tanstack/react-router";
import { PublicCampaignPage } from "~/features/public/public-campaign-page";
import { or404 } from "~/lib/loaders";

export const Route = createFileRoute("/p/$orgSlug/$slug")({
  loader: async ({ context, params }) => {
    await context.loadTrpc();
    const data = await or404(
      context.queryClient.ensureQueryData(
        context.trpc.campaigns.public.queryOptions({ organizationSlug: params.orgSlug, slug: params.slug }),
      ),
    );
    // An old slug answers with the campaign under its current one: move the address there for good.
    if (data.campaign.slug !== params.slug)
      throw redirect({
        to: "/p/$orgSlug/$slug",
        params: { orgSlug: params.orgSlug, slug: data.campaign.slug },
        statusCode: 301,
        replace: true,
      });
    return data;
  },
  head: ({ loaderData }) => ({
    meta: [
      {
        title: `${loaderData?.campaign.title ?? "Campaign"} · ${loaderData?.organization.name ?? "Almoner"}`,
      },
    ],
  }),
  component: PublicCampaignPage,
});
