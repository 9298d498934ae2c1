import { createFileRoute } from "@tanstack/react-router";
import { stripDefaults } from "~/components/data-table/list-search";
import { ReportsPage } from "~/features/reports/reports-page";
import { reportsSearch } from "~/features/reports/search";

/** /reports (issue 27): the six fundraising reports, the chosen one and its filters in the URL. */
export const Route = createFileRoute("/_authed/reports/")({
  validateSearch: reportsSearch,
  search: stripDefaults(reportsSearch),
  head: () => ({ meta: [{ title: "Reports · Almoner" }] }),
  component: ReportsPage,
});
