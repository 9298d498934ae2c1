import { NO_PORTAL_ACCESS_MESSAGE } from "@core/permissions";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { Button } from "~/components/ui/button";
import { Users } from "~/components/ui/shell-icons";
import { AuthCard } from "~/features/auth/auth-card";
import { LoginForm } from "~/features/auth/login-form";
import { safeRedirect } from "~/lib/auth/guards";
import { socialErrorMessage } from "~/lib/auth/social";
import { useAuth } from "~/lib/auth/use-auth";

const route = getRouteApi("/login");

export function LoginPage() {
  const search = route.useSearch();
  const auth = useAuth();
  const navigate = useNavigate();
  // Signed in but without portal access (the guard above let them stay): sign out at once.
  const deniedSession = !!auth.user && !auth.capabilities?.portalAccess;
  // Latched: the sign-out below navigates to a bare /login, and a sign-in refused on this page
  // for that reason (use-auth signs them out the same way) leaves no trace in the URL.
  const [refused, setRefused] = React.useState(() => !!search.denied || deniedSession);
  React.useEffect(() => {
    if (search.denied) setRefused(true);
  }, [search.denied]);
  React.useEffect(() => {
    // SPEC §4: a user without portal access is signed out at once.
    if (!deniedSession) return;
    setRefused(true);
    void auth.signOut();
  }, [deniedSession, auth.signOut]);
  if (refused || search.denied || deniedSession)
    return (
      <NoOrganization
        onOtherAccount={() => {
          setRefused(false);
          void navigate({ to: "/login", search: { redirect: search.redirect }, replace: true });
        }}
      />
    );
  return (
    <AuthCard
      title="Sign in"
      description="Sign in to manage campaigns, donors and donations."
      footer={
        <Link to="/sign-up" search={{ redirect: search.redirect }} className="hover:underline">
          Create an account
        </Link>
      }
    >
      <LoginForm
        redirectTo={safeRedirect(search.redirect)}
        onNoPortalAccess={() => setRefused(true)}
        initialError={search.error ? socialErrorMessage(search.error, search.error_description) : null}
      />
    </AuthCard>
  );
}

/**
 * Not an error: an account nobody has added to an organization yet (a new sign-up, a verified
 * address). SPEC §8's words, what to do about it, and the way back to the form. SPEC §4 has
 * already signed them out, so the button offers another account rather than a sign-out.
 */
function NoOrganization({ onOtherAccount }: { onOtherAccount: () => void }) {
  return (
    <AuthCard title="You're not in an organization yet">
      <div className="flex flex-col gap-4 text-sm">
        <div className="flex items-start gap-3">
          <Users className="mt-0.5 size-5 shrink-0 text-primary" />
          <p>{NO_PORTAL_ACCESS_MESSAGE}</p>
        </div>
        <p className="text-muted-foreground">
          An owner or admin of your organization can invite you from its Members page. Open the link in the
          invitation e-mail and you are in. You have been signed out until then.
        </p>
        <Button type="button" variant="outline" className="w-full" onClick={onOtherAccount}>
          Sign in with another account
        </Button>
      </div>
    </AuthCard>
  );
}
