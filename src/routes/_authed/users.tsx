import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { listSearch } from "~/components/data-table/list-search";
import { PageHeader } from "~/components/layout/page-header";
import { UsersTable } from "~/features/admin/users-table";
import { requireAdmin } from "~/lib/auth/guards";

export const Route = createFileRoute("/_authed/users")({
  validateSearch: listSearch,
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Users · Almoner" }] }),
  component: () => {
    const s = Route.useSearch();
    const navigate = useNavigate({ from: Route.fullPath });
    return (
      <>
        <PageHeader title="Users" description="Accounts, roles, bans and sessions." />
        <UsersTable state={s} onStateChange={(n) => navigate({ search: (p) => ({ ...p, ...n }) })} />
      </>
    );
  },
});
