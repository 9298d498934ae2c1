import { createFileRoute } from "@tanstack/react-router";
import { ImportPage } from "~/features/imports/import-page";
import { requireCan } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/donations/import")({
  beforeLoad: ({ context }) => requireCan(context, { import: ["create"] }, "/donations"),
  head: () => ({ meta: [{ title: "Import donations · Almoner" }] }),
  component: RouteComponent,
});

function RouteComponent() {
  return <ImportPage kind="donations" />;
}
