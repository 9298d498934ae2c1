import { createFileRoute } from "@tanstack/react-router";
import { stripDefaults } from "~/components/data-table/list-search";
import { PlansPage } from "~/features/plans/plans-page";
import { planSearch } from "~/features/plans/search";

export const Route = createFileRoute("/_authed/recurring/")({
  validateSearch: planSearch,
  search: stripDefaults(planSearch),
  head: () => ({ meta: [{ title: "Recurring plans · Almoner" }] }),
  component: PlansPage,
});
