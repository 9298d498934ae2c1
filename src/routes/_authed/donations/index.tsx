import { createFileRoute } from "@tanstack/react-router";
import { DonationsPage } from "~/features/donations/donations-page";
import { donationSearch } from "~/features/donations/search";

export const Route = createFileRoute("/_authed/donations/")({
  validateSearch: donationSearch,
  head: () => ({ meta: [{ title: "Donations · Almoner" }] }),
  component: DonationsPage,
});
