import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/donor-tiers/")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Donor tiers · Almoner" }] }),
  component: () => (
    <PlaceholderPage title="Donor tiers" description="Giving levels assigned automatically." />
  ),
});
