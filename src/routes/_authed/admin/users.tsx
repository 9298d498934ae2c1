import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "~/components/layout/placeholder-page";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/admin/users")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Users · Almoner" }] }),
  component: () => <PlaceholderPage title="Users" description="Accounts, roles, bans and sessions." />,
});
