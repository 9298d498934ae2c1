import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/organization-badges/")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Organization badges · Almoner" }] }),
  component: () => (
    <PlaceholderPage title="Organization badges" description="Badges shown on organization profiles." />
  ),
});
