import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { MoreHorizontal } from "lucide-react";
import { toast } from "sonner";
import { DataTable, type ListState } from "~/components/data-table/data-table";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { authApi } from "~/lib/auth/api";
import { useAuth } from "~/lib/auth/use-auth";
import { formatDate } from "~/lib/format";

type User = Awaited<ReturnType<typeof authApi.admin.listUsers>>["users"][number];

/** Users through the admin API (better-auth admin plugin contract), shared by /admin/users and /organizers. */
export function UsersTable({
  state,
  onStateChange,
  platformRole: role,
  detailLink,
}: {
  state: ListState;
  onStateChange: (n: Partial<ListState>) => void;
  /** Only users holding this platform role (e.g. organizer). */
  platformRole?: string;
  detailLink?: boolean;
}) {
  const qc = useQueryClient();
  const auth = useAuth();
  const sortBy = state.sort === "name" || state.sort === "email" ? state.sort : "createdAt";
  const query = {
    limit: state.pageSize,
    offset: (state.page - 1) * state.pageSize,
    sortBy,
    sortDirection: state.desc ? "desc" : "asc",
    searchValue: state.q,
    searchField: state.q?.includes("@") ? "email" : "name",
    filterField: role ? "role" : undefined,
    filterValue: role,
  };
  const q = useQuery({
    queryKey: ["admin", "users", query],
    queryFn: () => authApi.admin.listUsers(query),
    placeholderData: keepPreviousData,
  });
  const act = useMutation({
    mutationFn: (fn: () => Promise<unknown>) => fn(),
    onSuccess: async () => {
      toast.success("Done");
      await qc.invalidateQueries({ queryKey: ["admin"] });
    },
    onError: (e) => toast.error(e instanceof Error ? e.message : "Failed"),
  });
  const columns: ColumnDef<User, unknown>[] = [
    {
      header: "Name",
      meta: { sortKey: "name" },
      cell: ({ row }) =>
        detailLink ? (
          <Link
            to="/organizers/$organizerId"
            params={{ organizerId: row.original.id }}
            className="font-medium hover:underline"
          >
            {row.original.name}
          </Link>
        ) : (
          <Link
            to="/users/$userId"
            params={{ userId: row.original.id }}
            className="font-medium hover:underline"
          >
            {row.original.name}
          </Link>
        ),
    },
    { header: "E-mail", meta: { sortKey: "email" }, cell: ({ row }) => row.original.email },
    {
      header: "Role",
      cell: ({ row }) => (
        <span className="flex gap-1">
          {row.original.role.split(",").map((r) => (
            <Badge key={r} variant="secondary">
              {r.trim()}
            </Badge>
          ))}
        </span>
      ),
    },
    {
      header: "Status",
      cell: ({ row }) =>
        row.original.banned ? (
          <Badge variant="destructive" title={row.original.banReason ?? ""}>
            Banned
          </Badge>
        ) : row.original.emailVerified ? (
          "Verified"
        ) : (
          "Unverified"
        ),
    },
    {
      header: "Joined",
      meta: { sortKey: "createdAt" },
      cell: ({ row }) => formatDate(Date.parse(row.original.createdAt)),
    },
    {
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => {
        const u = row.original;
        const self = u.id === auth.user?.id;
        return (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" className="size-8" aria-label={`Actions for ${u.name}`}>
                <MoreHorizontal className="size-4" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {!self && !u.role.includes("admin") && !u.banned ? (
                <DropdownMenuItem
                  onSelect={() =>
                    auth
                      .impersonate(
                        u.id,
                        window.prompt("Why are you impersonating this user? (recorded in the audit log)") ??
                          undefined,
                      )
                      .catch((e: Error) => toast.error(e.message))
                  }
                >
                  Impersonate
                </DropdownMenuItem>
              ) : null}
              {["user", "organizer", "admin"]
                .filter((r) => r !== u.role)
                .map((r) => (
                  <DropdownMenuItem
                    key={r}
                    disabled={self}
                    onSelect={() => act.mutate(() => authApi.admin.setRole(u.id, r))}
                  >
                    Make {r}
                  </DropdownMenuItem>
                ))}
              <DropdownMenuSeparator />
              {u.banned ? (
                <DropdownMenuItem onSelect={() => act.mutate(() => authApi.admin.unbanUser(u.id))}>
                  Unban
                </DropdownMenuItem>
              ) : (
                <DropdownMenuItem
                  disabled={self}
                  onSelect={() => {
                    const reason = window.prompt("Reason for the ban?") ?? undefined;
                    act.mutate(() => authApi.admin.banUser(u.id, reason));
                  }}
                >
                  Ban…
                </DropdownMenuItem>
              )}
              <DropdownMenuItem onSelect={() => act.mutate(() => authApi.admin.revokeUserSessions(u.id))}>
                Sign out everywhere
              </DropdownMenuItem>
              <DropdownMenuItem
                disabled={self}
                className="text-destructive"
                onSelect={() =>
                  window.confirm(`Remove ${u.email} for good?`) &&
                  act.mutate(() => authApi.admin.removeUser(u.id))
                }
              >
                Remove user
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        );
      },
    },
  ];
  return (
    <DataTable<User>
      columns={columns}
      data={q.data?.users}
      total={q.data?.total}
      state={state}
      onStateChange={onStateChange}
      isLoading={q.isPending}
      error={q.error ? (q.error as Error).message : null}
      searchPlaceholder="Name, or an e-mail with @"
      emptyMessage="No users match."
    />
  );
}
