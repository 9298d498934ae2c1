import { createFileRoute } from "@tanstack/react-router";
import { listSearch, stripDefaults } from "~/components/data-table/list-search";
import { UsersPage } from "~/features/users/users-page";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/users")({
  validateSearch: listSearch,
  search: stripDefaults(listSearch),
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Users · Almoner" }] }),
  component: UsersPage,
});
