import { memberInviteInput, memberRoles } from "@core/organization";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { useAuth } from "~/lib/auth/use-auth";
import { errorInfo, formatDate, titleCase } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

// The shared schema is zod/mini, which ships no messages: the form shows the English ones the
// Worker answers with (as in profile-form.tsx).
config(en());

/**
 * Members with their org roles, the invite form and pending invitations. Owners and admins manage;
 * only owners hand out the owner role; the last owner can neither leave nor be demoted (API rule).
 */
export function MembersCard({ canManage, isOwner }: { canManage: boolean; isOwner: boolean }) {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { user } = useAuth();
  const members = useQuery(trpc.organization.members.queryOptions());
  const invitations = useQuery({ ...trpc.organization.invitations.queryOptions(), enabled: canManage });
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.organization.pathKey() });
  const onError = (e: unknown) => toast.error(errorInfo(e).message);
  const setRole = useMutation(
    trpc.organization.setMemberRole.mutationOptions({
      onSuccess: async () => {
        toast.success("Role changed");
        await refresh();
      },
      onError,
    }),
  );
  const remove = useMutation(trpc.organization.removeOrgMember.mutationOptions());
  const leave = useMutation(trpc.organization.leave.mutationOptions());
  const resend = useMutation(
    trpc.organization.resendInvitation.mutationOptions({
      onSuccess: () => toast.success("Invitation sent again"),
      onError,
    }),
  );
  const revoke = useMutation(trpc.organization.revokeInvitation.mutationOptions());
  const [inviteError, setInviteError] = React.useState<Record<string, string>>({});
  const invite = useMutation(
    trpc.organization.invite.mutationOptions({
      onSuccess: async () => {
        toast.success("Invitation sent");
        setInviteError({});
        await refresh();
      },
      onError: (e) => {
        const info = errorInfo(e);
        setInviteError({ ...info.fields, _: info.message });
      },
    }),
  );
  const grantable = memberRoles.filter((r) => r !== "owner" || isOwner);
  // The last owner is not offered "Leave" (L12): it would be refused; they are told what to do instead.
  const lastOwner = (members.data ?? []).filter((m) => m.role === "owner").length === 1;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>People who work in this organization and what they may do.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <ul className="flex flex-col divide-y">
          {members.data?.map((m) => {
            const self = m.userId === user?.id;
            const editable = canManage && !self && (m.role !== "owner" || isOwner);
            return (
              <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span className="min-w-0">
                  <span className="font-medium">{m.name}</span>{" "}
                  <span className="break-all text-muted-foreground">{m.email}</span>
                  {self ? (
                    <Badge variant="outline" className="ml-2">
                      you
                    </Badge>
                  ) : null}
                </span>
                <span className="flex items-center gap-2">
                  {editable ? (
                    <NativeSelect
                      aria-label={`Role of ${m.name}`}
                      className="h-8"
                      value={m.role}
                      disabled={setRole.isPending}
                      onChange={(e) =>
                        setRole.mutate({
                          membershipId: m.id,
                          role: e.target.value as (typeof memberRoles)[number],
                        })
                      }
                    >
                      {grantable.map((r) => (
                        <option key={r} value={r}>
                          {titleCase(r)}
                        </option>
                      ))}
                    </NativeSelect>
                  ) : (
                    <Badge variant="secondary">{titleCase(m.role)}</Badge>
                  )}
                  {editable ? (
                    <ConfirmButton
                      title={`Remove ${m.name} from the organization?`}
                      description="They lose access at once. Their past actions and records stay."
                      confirmLabel="Remove"
                      destructive
                      onConfirm={async () => {
                        try {
                          await remove.mutateAsync({ membershipId: m.id });
                          toast.success("Member removed");
                          await refresh();
                        } catch (e) {
                          onError(e);
                        }
                      }}
                    >
                      Remove
                    </ConfirmButton>
                  ) : null}
                  {self && m.role === "owner" && lastOwner ? (
                    <span className="text-muted-foreground text-xs">
                      The only owner cannot leave:{" "}
                      <Link to="/organization" search={{ section: "danger" }} className="underline">
                        hand it on or delete it
                      </Link>
                    </span>
                  ) : self ? (
                    <ConfirmButton
                      title="Leave this organization?"
                      description="You lose access to its campaigns, donors and donations."
                      confirmLabel="Leave"
                      destructive
                      onConfirm={async () => {
                        try {
                          await leave.mutateAsync();
                          toast.success("You left the organization");
                          await qc.invalidateQueries();
                        } catch (e) {
                          onError(e);
                        }
                      }}
                    >
                      Leave
                    </ConfirmButton>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
        {canManage ? (
          <>
            <form
              noValidate
              className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end"
              onSubmit={(e) => {
                e.preventDefault();
                const f = new FormData(e.currentTarget);
                // Checked here with the procedure's own schema (core/organization.ts) before sending.
                const parsed = memberInviteInput.safeParse({
                  email: String(f.get("email") ?? "").trim(),
                  role: String(f.get("role")),
                });
                if (!parsed.success) {
                  const fields: Record<string, string> = {};
                  for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
                  setInviteError(fields);
                  return;
                }
                invite.mutate(parsed.data);
              }}
            >
              <Field label="Invite by e-mail" error={inviteError.email}>
                <Input name="email" type="email" autoComplete="off" />
              </Field>
              <Field label="Role" error={inviteError.role}>
                <NativeSelect name="role" defaultValue="organizer">
                  {grantable.map((r) => (
                    <option key={r} value={r}>
                      {titleCase(r)}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
              <Button type="submit" disabled={invite.isPending}>
                Send invitation
              </Button>
              {inviteError._ && !inviteError.email ? (
                <p role="alert" className="text-destructive text-sm sm:col-span-3">
                  {inviteError._}
                </p>
              ) : null}
            </form>
            {invitations.data?.length ? (
              <div className="flex flex-col gap-1">
                <h3 className="font-medium text-sm">Pending invitations</h3>
                <ul className="flex flex-col divide-y">
                  {invitations.data.map((i) => (
                    <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                      <span className="min-w-0">
                        {/* Only the address may break anywhere (L9); the words after it wrap whole. */}
                        <span className="break-all">{i.email}</span> · {titleCase(i.role)}
                        <span className="text-muted-foreground">
                          {" "}
                          · {i.expired ? "expired" : `expires ${formatDate(i.expiresAt, tz)}`}
                          {i.invitedBy ? ` · by ${i.invitedBy}` : ""}
                        </span>
                      </span>
                      <span className="flex gap-2">
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={resend.isPending}
                          onClick={() => resend.mutate({ id: i.id }, { onSuccess: () => void refresh() })}
                        >
                          Resend
                        </Button>
                        <ConfirmButton
                          title={`Revoke the invitation to ${i.email}?`}
                          description="The link stops working at once."
                          confirmLabel="Revoke"
                          destructive
                          onConfirm={async () => {
                            try {
                              await revoke.mutateAsync({ id: i.id });
                              toast.success("Invitation revoked");
                              await refresh();
                            } catch (e) {
                              onError(e);
                            }
                          }}
                        >
                          Revoke
                        </ConfirmButton>
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
