import { createFileRoute } from "@tanstack/react-router";
import { DonorCreatePage } from "~/features/donors/donor-create-page";
import { requireCan } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/donors/create")({
  beforeLoad: ({ context }) => requireCan(context, { donor: ["create"] }, "/donors"),
  head: () => ({ meta: [{ title: "New donor · Almoner" }] }),
  component: DonorCreatePage,
});
