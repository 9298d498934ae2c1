import { hasRole, parseRoles } from "@core/permissions";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { MoreHorizontal } from "lucide-react";
import * as React from "react";
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
import { useTimeZone } from "~/lib/time-zone";
import { platformRoleName, type UserAction, UserActionDialog } from "./user-action-dialogs";

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
  const tz = useTimeZone();
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
  const done = async (message: string) => {
    toast.success(message);
    await qc.invalidateQueries({ queryKey: ["admin"] });
  };
  const columns: ColumnDef<User, unknown>[] = [
    {
      header: "Name",
      meta: { sortKey: "name", card: "title" },
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
    { header: "E-mail", meta: { sortKey: "email", card: "meta" }, cell: ({ row }) => row.original.email },
    {
      header: "Platform role",
      meta: { card: "status" },
      cell: ({ row }) => (
        <span className="flex gap-1">
          {parseRoles(row.original.role).map((r) => (
            <Badge key={r} variant="secondary">
              {r}
            </Badge>
          ))}
        </span>
      ),
    },
    {
      header: "Status",
      meta: { card: "status" },
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
      meta: { sortKey: "createdAt", card: "date", cardLabel: "Joined" },
      cell: ({ row }) => formatDate(Date.parse(row.original.createdAt), tz),
    },
    {
      id: "actions",
      meta: { card: "actions" },
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => (
        <UserActions
          user={row.original}
          self={row.original.id === auth.user?.id}
          onDone={done}
          run={(fn) => act.mutate(fn)}
        />
      ),
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

/**
 * One row's menu. Acts that change who someone is or what they may do (ban, impersonate, role,
 * remove) open a dialog first; unban and sign-out-everywhere act at once.
 */
function UserActions({
  user: u,
  self,
  onDone,
  run,
}: {
  user: User;
  self: boolean;
  onDone: (message: string) => Promise<void>;
  run: (fn: () => Promise<unknown>) => void;
}) {
  const [action, setAction] = React.useState<UserAction | null>(null);
  const trigger = React.useRef<HTMLButtonElement>(null);
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            ref={trigger}
            variant="ghost"
            size="icon"
            className="size-8"
            aria-label={`Actions for ${u.name}`}
          >
            <MoreHorizontal className="size-4" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          {!self && !hasRole(u.role, "admin") && !u.banned ? (
            <DropdownMenuItem onSelect={() => setAction({ kind: "impersonate" })}>
              Impersonate…
            </DropdownMenuItem>
          ) : null}
          {["user", "organizer", "admin"]
            .filter((r) => r !== u.role)
            .map((r) => (
              <DropdownMenuItem key={r} disabled={self} onSelect={() => setAction({ kind: "role", role: r })}>
                Make {platformRoleName(r)}…
              </DropdownMenuItem>
            ))}
          <DropdownMenuSeparator />
          {u.banned ? (
            <DropdownMenuItem onSelect={() => run(() => authApi.admin.unbanUser(u.id))}>
              Unban
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem disabled={self} onSelect={() => setAction({ kind: "ban" })}>
              Ban…
            </DropdownMenuItem>
          )}
          <DropdownMenuItem onSelect={() => run(() => authApi.admin.revokeUserSessions(u.id))}>
            Sign out everywhere
          </DropdownMenuItem>
          <DropdownMenuItem
            disabled={self}
            className="text-destructive"
            onSelect={() => setAction({ kind: "remove" })}
          >
            Remove user…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <UserActionDialog
        user={u}
        action={action}
        onClose={() => setAction(null)}
        onDone={onDone}
        returnFocusRef={trigger}
      />
    </>
  );
}
