import { createFileRoute } from "@tanstack/react-router";
import { stripDefaults, useListState } from "~/components/data-table/list-search";
import { DonorsPage } from "~/features/donors/donors-page";
import { donorsSearch } from "~/features/donors/search";

export const Route = createFileRoute("/_authed/donors/")({
  validateSearch: donorsSearch,
  search: stripDefaults(donorsSearch),
  head: () => ({ meta: [{ title: "Donors · Almoner" }] }),
  component: RouteComponent,
});

function RouteComponent() {
  const [search, setSearch] = useListState(Route);
  return <DonorsPage search={search} setSearch={setSearch} />;
}
