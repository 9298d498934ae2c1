/** One user as platform admins see them: memberships, sessions, impersonation. */

import { hasRole } from "@core/permissions";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { authApi } from "~/lib/auth/api";
import { formatDateTime, titleCase } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";
import { type UserAction, UserActionDialog } from "./user-action-dialogs";

export function UserDetail({ userId: organizerId }: { userId: string }) {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const user = useQuery({
    queryKey: ["admin", "user", organizerId],
    queryFn: () => authApi.admin.getUser(organizerId),
  });
  const sessions = useQuery({
    queryKey: ["admin", "sessions", organizerId],
    queryFn: () => authApi.admin.listUserSessions(organizerId),
  });
  const memberships = useQuery(trpc.organization.memberships.queryOptions({ userId: organizerId }));
  const accounts = useQuery(trpc.users.accounts.queryOptions({ userId: organizerId }));
  const history = useQuery(trpc.users.history.queryOptions({ userId: organizerId }));
  const revokeAll = useMutation({
    mutationFn: () => authApi.admin.revokeUserSessions(organizerId),
    onSuccess: async () => {
      toast.success("Signed out everywhere");
      await qc.invalidateQueries({ queryKey: ["admin", "sessions", organizerId] });
    },
  });
  const remove = useMutation(
    trpc.organization.removeMember.mutationOptions({
      onSuccess: async () => {
        toast.success("Removed from the organization; history kept");
        await qc.invalidateQueries();
      },
    }),
  );
  const u = user.data;
  const [action, setAction] = React.useState<UserAction | null>(null);
  const impersonateButton = React.useRef<HTMLButtonElement>(null);
  if (user.error)
    return (
      <p role="alert" className="text-destructive">
        {(user.error as Error).message}
      </p>
    );
  if (!u) return null;
  return (
    <>
      <PageHeader
        title={u.name}
        description={`${u.email} · platform role: ${u.role}`}
        actions={
          !u.banned && !hasRole(u.role, "admin") ? (
            <Button
              ref={impersonateButton}
              aria-haspopup="dialog"
              onClick={() => setAction({ kind: "impersonate" })}
            >
              Impersonate…
            </Button>
          ) : null
        }
      />
      <UserActionDialog
        user={u}
        action={action}
        onClose={() => setAction(null)}
        onDone={() => undefined}
        returnFocusRef={impersonateButton}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Organizations</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            {memberships.data?.map((m) => (
              <div key={m.id} className="flex items-center justify-between">
                <span>
                  {m.organizationName} · {titleCase(m.role)}
                </span>
                <ConfirmButton
                  destructive
                  title={`Remove ${u.name} from ${m.organizationName}?`}
                  description="They lose access to the organization at once. Their past actions and records stay."
                  confirmLabel="Remove"
                  onConfirm={() => remove.mutateAsync({ membershipId: m.id })}
                >
                  Remove
                </ConfirmButton>
              </div>
            ))}
            {memberships.data?.length === 0 ? <p className="text-muted-foreground">No memberships.</p> : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Active sessions</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            {sessions.data?.sessions.map((s) => (
              <p key={s.id}>
                {s.userAgent?.slice(0, 60) ?? "Unknown device"} · {s.ipAddress ?? "?"} · since{" "}
                {formatDateTime(Date.parse(s.createdAt), tz)}
                {s.impersonatedBy ? " (impersonation)" : ""}
              </p>
            ))}
            {sessions.data?.sessions.length === 0 ? (
              <p className="text-muted-foreground">Not signed in anywhere.</p>
            ) : null}
          </CardContent>
        </Card>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Sign-in methods</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-1 text-sm">
            {accounts.data?.map((a) => (
              <p key={a.id}>
                {a.providerId === "credential" ? "E-mail and password" : a.providerId} · since{" "}
                {formatDateTime(a.createdAt, tz)}
              </p>
            ))}
            {accounts.data?.length === 0 ? <p className="text-muted-foreground">No sign-in method.</p> : null}
            <Button
              size="sm"
              variant="outline"
              className="mt-2 self-start"
              onClick={() => revokeAll.mutate()}
            >
              Sign out everywhere
            </Button>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>History</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            {history.data?.length ? (
              <ol className="flex flex-col gap-3">
                {history.data.map((h) => (
                  <li key={h.id}>
                    <p className="font-medium">{h.sentence}</p>
                    {h.reason ? <p className="text-muted-foreground">Reason: {h.reason}</p> : null}
                    <p className="text-muted-foreground text-xs">
                      {h.actor ?? "System"}
                      {h.impersonator ? ` (impersonated by ${h.impersonator})` : ""}
                      {h.organizationName ? ` · ${h.organizationName}` : ""} ·{" "}
                      <time dateTime={new Date(h.at).toISOString()}>{formatDateTime(h.at, tz)}</time>
                      {h.ip ? ` · IP ${h.ip}` : ""}
                    </p>
                  </li>
                ))}
              </ol>
            ) : null}
            {history.data?.length === 0 ? (
              <p className="text-muted-foreground">Nothing recorded yet.</p>
            ) : null}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
