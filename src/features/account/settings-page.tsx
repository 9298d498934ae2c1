import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { PageHeader } from "~/components/layout/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { authApi } from "~/lib/auth/api";
import { useAuth } from "~/lib/auth/use-auth";
import { formatDateTime } from "~/lib/format";
import { setTheme, THEMES, type Theme, useTheme } from "~/lib/theme";
import { useTimeZone } from "~/lib/time-zone";

export function SettingsPage() {
  const tz = useTimeZone();
  const auth = useAuth();
  const qc = useQueryClient();
  const sessions = useQuery({ queryKey: ["auth", "sessions"], queryFn: authApi.listSessions });
  const accounts = useQuery({ queryKey: ["auth", "accounts"], queryFn: authApi.listAccounts });
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
    mutationFn: (password: string) => authApi.deleteUser({ password, callbackURL: "/login" }),
    onSuccess: async (r) => {
      toast.success(r.message);
      if (r.message === "User deleted") await auth.signOut();
    },
  });
  // The password typed in the form, held while the dialog asks; null when it is closed.
  const [deletePassword, setDeletePassword] = React.useState<string | null>(null);
  return (
    <>
      <PageHeader title="Settings" description="Appearance, sessions, sign-in methods and your account." />
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
              <span>
                {s.userAgent?.slice(0, 70) ?? "Unknown device"} · {s.ipAddress ?? "unknown IP"} · since{" "}
                {formatDateTime(Date.parse(s.createdAt), tz)} {s.id === auth.user?.id ? null : null}
              </span>
              <Button size="sm" variant="ghost" onClick={() => s.token && revoke.mutate(s.token)}>
                End
              </Button>
            </div>
          ))}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Sign-in methods</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          {accounts.data?.map((a) => (
            <Badge key={a.id} variant="secondary">
              {a.providerId === "credential" ? "E-mail and password" : a.providerId}
            </Badge>
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
        <CardContent>
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
              className="h-9 min-w-0 flex-1 basis-48 rounded-md border border-input bg-transparent px-3 text-sm"
              required
            />
            <Button type="submit" variant="destructive" disabled={del.isPending}>
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
