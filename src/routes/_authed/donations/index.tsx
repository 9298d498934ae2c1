import { createFileRoute } from "@tanstack/react-router";
import { stripDefaults } from "~/components/data-table/list-search";
import { DonationsPage } from "~/features/donations/donations-page";
import { donationSearch } from "~/features/donations/search";

export const Route = createFileRoute("/_authed/donations/")({
  validateSearch: donationSearch,
  search: stripDefaults(donationSearch),
  head: () => ({ meta: [{ title: "Donations · Almoner" }] }),
  component: DonationsPage,
});
