import { createFileRoute } from "@tanstack/react-router";
import { TiersPage } from "~/features/donors/tiers-page";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/donor-tiers/")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Donor tiers · Almoner" }] }),
  component: TiersPage,
});
