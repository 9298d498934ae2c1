import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import { Download, Plus } from "lucide-react";
import { listSearch } from "~/components/data-table/data-table";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { UsersTable } from "~/features/admin/users-table";
import { authApi } from "~/lib/auth/api";
import { requireAdmin } from "~/lib/auth/guards";

async function exportOrganizers() {
  const { users } = await authApi.admin.listUsers({
    filterField: "role",
    filterValue: "organizer",
    limit: 1000,
  });
  const cell = (v: unknown) => {
    let s = String(v ?? "");
    if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const csv = `\uFEFFname,email,verified,banned,joined\r\n${users.map((u) => [u.name, u.email, u.emailVerified, u.banned, u.createdAt].map(cell).join(",")).join("\r\n")}\r\n`;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
  a.download = `organizers-${new Date().toISOString().slice(0, 10)}.csv`;
  a.click();
}

export const Route = createFileRoute("/_authed/organizers/")({
  validateSearch: listSearch,
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Organizers · Almoner" }] }),
  component: () => {
    const s = Route.useSearch();
    const navigate = useNavigate({ from: Route.fullPath });
    return (
      <>
        <PageHeader
          title="Organizers"
          description="People who run campaigns for organizations."
          actions={
            <>
              <Button variant="outline" onClick={() => void exportOrganizers()}>
                <Download className="size-4" /> Export CSV
              </Button>
              <Button asChild>
                <Link to="/organizers/create">
                  <Plus className="size-4" /> New organizer
                </Link>
              </Button>
            </>
          }
        />
        <UsersTable
          platformRole="organizer"
          detailLink
          state={s}
          onStateChange={(n) => navigate({ search: (p) => ({ ...p, ...n }) })}
        />
      </>
    );
  },
});
