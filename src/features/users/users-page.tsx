import { getRouteApi } from "@tanstack/react-router";
import { PageHeader } from "~/components/layout/page-header";
import { UsersTable } from "~/features/users/users-table";

const route = getRouteApi("/_authed/users");

export function UsersPage() {
  const s = route.useSearch();
  const navigate = route.useNavigate();
  return (
    <>
      <PageHeader title="Users" description="Accounts, roles, bans and sessions." />
      <UsersTable state={s} onStateChange={(n) => navigate({ search: (p) => ({ ...p, ...n }) })} />
    </>
  );
}
