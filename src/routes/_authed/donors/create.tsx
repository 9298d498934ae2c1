import { createFileRoute } from "@tanstack/react-router";
import { DonorCreatePage } from "~/features/donors/donor-create-page";

export const Route = createFileRoute("/_authed/donors/create")({
  head: () => ({ meta: [{ title: "New donor · Almoner" }] }),
  component: DonorCreatePage,
});
