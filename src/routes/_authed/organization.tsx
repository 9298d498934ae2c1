import { createFileRoute } from "@tanstack/react-router";
import { OrganizationPage } from "~/features/organization/organization-page";

export const Route = createFileRoute("/_authed/organization")({
  head: () => ({ meta: [{ title: "Organization · Almoner" }] }),
  component: OrganizationPage,
});
