import { createFileRoute } from "@tanstack/react-router";
import { stripDefaults } from "~/components/data-table/list-search";
import { OrganizationPage } from "~/features/organization/organization-page";
import { organizationSearch } from "~/features/organization/search";

/** /organization: one section at a time, named in the URL (`?section=members`). */
export const Route = createFileRoute("/_authed/organization")({
  validateSearch: organizationSearch,
  search: stripDefaults(organizationSearch),
  head: () => ({ meta: [{ title: "Organization · Almoner" }] }),
  component: OrganizationPage,
});
