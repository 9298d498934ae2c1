import { createFileRoute } from "@tanstack/react-router";
import { BadgesPage } from "~/features/badges/badges-page";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/organization-badges/")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Organization badges · Almoner" }] }),
  component: BadgesPage,
});
