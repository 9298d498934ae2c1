import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import {
  facetParam,
  listSearchWith,
  opt,
  stripDefaults,
  useListState,
} from "~/components/data-table/list-search";
import { OrganizersPage } from "~/features/organizers/organizers-page";
import { organizerSorts, organizerStatuses } from "~/features/organizers/search";
import { requireAdmin } from "~/lib/auth/guards";

const organizersSearch = listSearchWith(organizerSorts, "joined", {
  status: facetParam(organizerStatuses),
  organizationId: opt(z.string().check(z.maxLength(100))),
});

export const Route = createFileRoute("/_authed/organizers/")({
  validateSearch: organizersSearch,
  search: stripDefaults(organizersSearch),
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Organizers · Almoner" }] }),
  component: Page,
});

function Page() {
  const [search, setSearch] = useListState(Route);
  return <OrganizersPage search={search} setSearch={setSearch} />;
}
