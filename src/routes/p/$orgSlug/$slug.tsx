import { createFileRoute, notFound, redirect } from "@tanstack/react-router";
import { PublicCampaignPage } from "~/features/public/public-campaign-page";
import { or404 } from "~/lib/loaders";

export const Route = createFileRoute("/p/$orgSlug/$slug")({
  loader: async ({ context, params }) => {
    await context.loadTrpc();
    const input = { organizationSlug: params.orgSlug, slug: params.slug };
    const data = await context.queryClient
      .ensureQueryData(context.trpc.campaigns.public.queryOptions(input))
      // Not public (a draft, a private campaign): members of its organization see a preview at the
      // same address; anyone else, signed in or not, the 404 a missing campaign gets.
      .catch(async (error) => {
        if ((error as { data?: { code?: string } })?.data?.code !== "NOT_FOUND") throw error;
        return or404(
          context.queryClient.ensureQueryData(context.trpc.campaigns.preview.queryOptions(input)),
        ).catch((e) => {
          const code = (e as { data?: { code?: string } })?.data?.code;
          if (code === "UNAUTHORIZED" || code === "FORBIDDEN") throw notFound();
          throw e;
        });
      });
    // An old slug answers with the campaign under its current one: move the address there for good.
    if (data.campaign.slug !== params.slug)
      throw redirect({
        to: "/p/$orgSlug/$slug",
        params: { orgSlug: params.orgSlug, slug: data.campaign.slug },
        statusCode: 301,
        replace: true,
      });
    return { preview: data.preview, title: data.campaign.title, organization: data.organization.name };
  },
  head: ({ loaderData }) => ({
    meta: [
      {
        title: `${loaderData?.preview ? "Preview: " : ""}${loaderData?.title ?? "Campaign"} · ${loaderData?.organization ?? "Almoner"}`,
      },
      // A preview is for the organization's members: never indexed, whoever finds the link.
      ...(loaderData?.preview ? [{ name: "robots", content: "noindex, nofollow" }] : []),
    ],
  }),
  component: PublicCampaignPage,
});
