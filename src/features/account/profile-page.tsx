import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { KeyRound, Link2, Unlink } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { PageHeader } from "~/components/layout/page-header";
import { NewPasswordField } from "~/components/new-password-field";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { authApi } from "~/lib/auth/api";
import { sessionQueryKey } from "~/lib/auth/session";
import {
  linkedAccountsQuery,
  socialErrorMessage,
  socialProvidersQuery,
  startLinkSocial,
  unlinkAccount,
} from "~/lib/auth/social";
import { isNewPasswordError } from "~/lib/auth/types";
import { useAuth } from "~/lib/auth/use-auth";

const route = getRouteApi("/_authed/profile");

function useAction<T>(fn: (v: T) => Promise<unknown>, success: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      toast.success(success);
      await qc.invalidateQueries({ queryKey: sessionQueryKey });
    },
    onError: (e) => toast.error(e instanceof Error ? e.message : "Failed"),
  });
}

export function ProfilePage() {
  const auth = useAuth();
  const user = auth.user;
  const [pwError, setPwError] = React.useState<string | null>(null);
  const [newPwError, setNewPwError] = React.useState<string | null>(null);
  const rename = useAction((name: string) => authApi.updateUser({ name }), "Name saved");
  const verify = useAction(
    () => authApi.sendVerificationEmail(user?.email ?? "", "/profile?notice=email-verified"),
    "Verification e-mail sent",
  );
  const email = useAction(
    (e: string) => authApi.changeEmail(e, "/profile"),
    "Check your inbox to confirm the change",
  );
  const password = useMutation({
    mutationFn: (v: { currentPassword: string; newPassword: string; revokeOtherSessions: boolean }) =>
      authApi.changePassword(v),
    onMutate: () => {
      setPwError(null);
      setNewPwError(null);
    },
    onSuccess: () => toast.success("Password changed"),
    onError: (e) => {
      const message = e instanceof Error ? e.message : "Failed";
      // A refused new password (too short, too common) is shown next to that field.
      if (isNewPasswordError(e)) setNewPwError(message);
      else setPwError(message);
    },
  });
  if (!user) return null;
  return (
    <>
      <PageHeader title="Profile" description="Your name, e-mail, password and sign-in methods." />
      {!user.emailVerified ? (
        <Alert>
          <AlertDescription className="flex flex-wrap items-center gap-2">
            Your e-mail is not verified yet; settings open once it is.
            <Button
              size="sm"
              variant="outline"
              onClick={() => verify.mutate(undefined)}
              disabled={verify.isPending}
            >
              Send verification e-mail
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Name</CardTitle>
          </CardHeader>
          <CardContent>
            <form
              className="flex gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                rename.mutate(String(new FormData(e.currentTarget).get("name") ?? ""));
              }}
            >
              <Input name="name" aria-label="Name" defaultValue={user.name} required />
              <Button type="submit" disabled={rename.isPending}>
                Save
              </Button>
            </form>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>E-mail</CardTitle>
            <CardDescription>
              {user.email}
              {user.emailVerified ? " · verified" : " · not verified"}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form
              className="flex gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                email.mutate(String(new FormData(e.currentTarget).get("email") ?? ""));
              }}
            >
              <Input
                name="email"
                type="email"
                aria-label="New e-mail"
                placeholder="new@example.org"
                required
              />
              <Button type="submit" disabled={email.isPending}>
                Change
              </Button>
            </form>
          </CardContent>
        </Card>
        <LinkedAccounts />
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Password</CardTitle>
          </CardHeader>
          <CardContent>
            <form
              className="grid max-w-xl gap-3"
              onSubmit={(e) => {
                e.preventDefault();
                const f = new FormData(e.currentTarget);
                password.mutate({
                  currentPassword: String(f.get("current")),
                  newPassword: String(f.get("next")),
                  revokeOtherSessions: f.get("revoke") === "on",
                });
              }}
            >
              <Field label="Current password">
                <Input name="current" type="password" autoComplete="current-password" required />
              </Field>
              <NewPasswordField label="New password" name="next" error={newPwError} />
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="revoke" defaultChecked /> Sign out my other devices
              </label>
              {pwError ? (
                <p role="alert" className="text-destructive text-sm">
                  {pwError}
                </p>
              ) : null}
              <div>
                <Button type="submit" disabled={password.isPending}>
                  Change password
                </Button>
              </div>
            </form>
          </CardContent>
        </Card>
      </div>
    </>
  );
}

/** Sign-in methods: the password and each enabled provider, with link and unlink (SPEC §5). */
function LinkedAccounts() {
  const search = route.useSearch();
  const qc = useQueryClient();
  const accounts = useQuery(linkedAccountsQuery());
  const providers = useQuery(socialProvidersQuery());
  const [busy, setBusy] = React.useState<string | null>(null);
  const unlink = useMutation({
    mutationFn: (v: { providerId: string; accountId: string }) => unlinkAccount(v.providerId, v.accountId),
    onSuccess: async () => {
      toast.success("Account unlinked");
      await qc.invalidateQueries({ queryKey: linkedAccountsQuery().queryKey });
    },
    onError: (e) => toast.error(e instanceof Error ? e.message : "Failed"),
  });
  const list = accounts.data ?? [];
  const names = new Map((providers.data ?? []).map((p) => [p.id, p.name]));
  const unlinked = (providers.data ?? []).filter((p) => !list.some((a) => a.providerId === p.id));
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Sign-in methods</CardTitle>
        <CardDescription>Accounts you can sign in with. You cannot remove the last one.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {search.error ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{socialErrorMessage(search.error, search.error_description)}</AlertDescription>
          </Alert>
        ) : null}
        <ul className="divide-y rounded-md border" aria-label="Linked accounts">
          {list.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <div className="flex min-w-0 items-center gap-2">
                <KeyRound className="text-muted-foreground size-4 shrink-0" />
                <div className="min-w-0">
                  <div className="font-medium">
                    {a.providerId === "credential" ? "Password" : (names.get(a.providerId) ?? a.providerId)}
                  </div>
                  {a.providerId !== "credential" ? (
                    <div className="text-muted-foreground truncate text-xs">{a.accountId}</div>
                  ) : null}
                </div>
              </div>
              {a.providerId !== "credential" ? (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={unlink.isPending || list.length < 2}
                  onClick={() => unlink.mutate({ providerId: a.providerId, accountId: a.accountId })}
                  aria-label={`Unlink ${names.get(a.providerId) ?? a.providerId}`}
                >
                  <Unlink /> Unlink
                </Button>
              ) : null}
            </li>
          ))}
          {accounts.isPending ? <li className="text-muted-foreground p-3 text-sm">Loading…</li> : null}
        </ul>
        {unlinked.length ? (
          <div className="flex flex-wrap gap-2">
            {unlinked.map((p) => (
              <Button
                key={p.id}
                variant="outline"
                size="sm"
                disabled={busy !== null}
                onClick={async () => {
                  setBusy(p.id);
                  try {
                    await startLinkSocial(p.id);
                  } catch (e) {
                    toast.error(e instanceof Error ? e.message : "Failed");
                    setBusy(null);
                  }
                }}
              >
                <Link2 /> Link {p.name}
              </Button>
            ))}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
