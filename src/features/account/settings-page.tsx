import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { PageHeader } from "~/components/layout/page-header";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { authApi } from "~/lib/auth/api";
import { useAuth } from "~/lib/auth/use-auth";
import { formatDateTime } from "~/lib/format";
import { setTheme, THEMES, type Theme, useTheme } from "~/lib/theme";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";
import { deviceName } from "./device";

export function SettingsPage() {
  const tz = useTimeZone();
  const auth = useAuth();
  const qc = useQueryClient();
  const sessions = useQuery({ queryKey: ["auth", "sessions"], queryFn: authApi.listSessions });
  const trpc = useTRPC();
  const navigate = useNavigate();
  // What deleting the account waits for: organizations the user alone owns (decision 046).
  const soleOwned = useQuery(trpc.organization.soleOwnerships.queryOptions());
  const setActive = useMutation(trpc.organization.setActive.mutationOptions());
  const revoke = useMutation({
    mutationFn: (token: string) => authApi.revokeSession(token),
    onSuccess: async () => {
      toast.success("Session ended");
      await qc.invalidateQueries({ queryKey: ["auth", "sessions"] });
    },
  });
  const revokeOthers = useMutation({
    mutationFn: authApi.revokeOtherSessions,
    onSuccess: async () => {
      toast.success("Signed out everywhere else");
      await qc.invalidateQueries({ queryKey: ["auth", "sessions"] });
    },
  });
  const del = useMutation({
    mutationFn: (password: string) =>
      authApi.deleteUser({ password, callbackURL: "/login?notice=account-deleted" }),
    onSuccess: (r) => {
      // Deleted: a fresh page load on /login, which says so (the session is gone with the account).
      if (r.message === "User deleted") window.location.assign("/login?notice=account-deleted");
      else toast.success("Check your inbox: confirm the deletion with the link we sent");
    },
  });
  const blockers = soleOwned.data ?? [];
  // The password typed in the form, held while the dialog asks; null when it is closed.
  const [deletePassword, setDeletePassword] = React.useState<string | null>(null);
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          <>
            Appearance, where you are signed in, and your account. Your name, e-mail, password and sign-in
            methods are on your{" "}
            <Link to="/profile" className="underline">
              profile
            </Link>
            .
          </>
        }
      />
      <AppearanceCard />
      <Card>
        <CardHeader className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <CardTitle>Where you are signed in</CardTitle>
            <CardDescription>End any session you do not recognise.</CardDescription>
          </div>
          <Button variant="outline" size="sm" onClick={() => revokeOthers.mutate()}>
            Sign out other sessions
          </Button>
        </CardHeader>
        <CardContent className="flex flex-col divide-y">
          {sessions.data?.map((s) => (
            <div key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="min-w-0">
                <span className="font-medium">{deviceName(s.userAgent)}</span>
                <span className="text-muted-foreground">
                  {" "}
                  · {s.ipAddress ?? "unknown address"} · since {formatDateTime(Date.parse(s.createdAt), tz)}
                </span>
              </span>
              <Button size="sm" variant="ghost" onClick={() => s.token && revoke.mutate(s.token)}>
                End
              </Button>
            </div>
          ))}
        </CardContent>
      </Card>
      <Card className="border-destructive/40">
        <CardHeader>
          <CardTitle>Delete account</CardTitle>
          <CardDescription>
            Removes your account and signs you out everywhere. Your organizations keep their records.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {blockers.length ? (
            <Alert variant="destructive" role="status" className="grid-cols-[0_minmax(0,1fr)]">
              <AlertTitle className="line-clamp-none">
                You are the only owner of {blockers.length === 1 ? "an organization" : "these organizations"}
              </AlertTitle>
              <AlertDescription className="flex flex-col gap-2">
                <p>
                  An organization must keep an owner. Before you can delete your account, make another member
                  owner (they accept the offer), or delete the organization.
                </p>
                <ul className="flex flex-col gap-1">
                  {blockers.map((o) => (
                    <li key={o.id} className="flex flex-wrap items-center gap-2">
                      <span className="font-medium">{o.name}</span>
                      <Button
                        size="sm"
                        variant="outline"
                        className="h-auto min-h-8 whitespace-normal py-1 text-left"
                        disabled={setActive.isPending}
                        onClick={async () => {
                          await setActive.mutateAsync({ organizationId: o.id });
                          await qc.invalidateQueries();
                          await navigate({ to: "/organization", search: { section: "danger" } });
                        }}
                      >
                        Hand on or delete {o.name}
                      </Button>
                    </li>
                  ))}
                </ul>
              </AlertDescription>
            </Alert>
          ) : null}
          <form
            className="flex max-w-md flex-wrap gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              setDeletePassword(String(new FormData(e.currentTarget).get("password") ?? ""));
            }}
          >
            <input
              name="password"
              type="password"
              aria-label="Password"
              placeholder="Your password"
              className="h-9 min-w-0 flex-1 basis-48 rounded-md border border-input bg-transparent px-3 text-sm disabled:opacity-50"
              required
              disabled={blockers.length > 0 || soleOwned.isPending}
            />
            <Button
              type="submit"
              variant="destructive"
              disabled={del.isPending || blockers.length > 0 || soleOwned.isPending}
            >
              Delete…
            </Button>
          </form>
          <ConfirmDialog
            open={deletePassword !== null}
            onOpenChange={(o) => {
              if (!o) setDeletePassword(null);
            }}
            destructive
            title="Delete your account?"
            description={`${auth.user?.email ?? "Your account"} is removed for good and signed out everywhere. This cannot be undone.`}
            confirmLabel="Delete account"
            onConfirm={() => del.mutateAsync(deletePassword ?? "")}
          />
        </CardContent>
      </Card>
    </>
  );
}

const THEME_LABELS: Record<Theme, { label: string; hint: string }> = {
  system: { label: "System", hint: "Follows your device" },
  light: { label: "Light", hint: "Always light" },
  dark: { label: "Dark", hint: "Always dark" },
};

/**
 * The colour scheme, remembered in this browser (src/lib/theme.ts). Native radios in a fieldset:
 * one tab stop, arrow keys move the choice, and a screen reader hears "Theme, radio group".
 */
function AppearanceCard() {
  const theme = useTheme();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Appearance</CardTitle>
        <CardDescription>Choose how Almoner looks in this browser.</CardDescription>
      </CardHeader>
      <CardContent>
        <fieldset>
          <legend className="mb-2 font-medium text-sm">Theme</legend>
          <div className="inline-flex max-w-full flex-wrap gap-1 rounded-lg bg-muted p-1">
            {THEMES.map((t) => (
              <label
                key={t}
                className="flex cursor-pointer flex-col rounded-md border border-transparent px-3 py-1.5 text-muted-foreground text-sm has-checked:border-input has-checked:bg-background has-checked:text-foreground has-checked:shadow-sm has-focus-visible:ring-[3px] has-focus-visible:ring-ring/50"
              >
                <input
                  type="radio"
                  name="theme"
                  value={t}
                  checked={theme === t}
                  onChange={() => setTheme(t)}
                  className="sr-only"
                />
                <span className="font-medium">{THEME_LABELS[t].label}</span>
                <span className="text-xs">{THEME_LABELS[t].hint}</span>
              </label>
            ))}
          </div>
        </fieldset>
      </CardContent>
    </Card>
  );
}
