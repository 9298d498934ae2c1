import { createFileRoute } from "@tanstack/react-router";
import { ImportPage } from "~/features/imports/import-page";
import { requireCan } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/donors/import")({
  beforeLoad: ({ context }) => requireCan(context, { import: ["create"] }, "/donors"),
  head: () => ({ meta: [{ title: "Import donors · Almoner" }] }),
  component: RouteComponent,
});

function RouteComponent() {
  return <ImportPage kind="donors" />;
}
