import { NO_PORTAL_ACCESS_MESSAGE } from "@core/permissions";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { Button } from "~/components/ui/button";
import { Users } from "~/components/ui/shell-icons";
import { AccessCheckFailed } from "~/features/auth/access-check-failed";
import { AuthCard } from "~/features/auth/auth-card";
import { LoginForm } from "~/features/auth/login-form";
import { landingFor } from "~/lib/auth/landing";
import { policyQueryOptions } from "~/lib/auth/policy";
import { socialErrorMessage } from "~/lib/auth/social";
import { useAuth } from "~/lib/auth/use-auth";

const route = getRouteApi("/login");

export function LoginPage() {
  const search = route.useSearch();
  const auth = useAuth();
  const navigate = useNavigate();
  // Signed in with somewhere to go (a sign-in on this page is on its way there): nothing to do.
  const landing = auth.user ? landingFor(auth.capabilities, search.redirect) : null;
  // Signed in without portal access and nowhere outside it for them: SPEC §4, signed out at
  // once. Not when the check failed: that is an error to retry (decision 044).
  const deniedSession = !!auth.user && !landing && !auth.accessCheckFailed;
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
  if (auth.user && auth.accessCheckFailed && !landing)
    return <AccessCheckFailed destination={search.redirect} />;
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
        destination={search.redirect}
        onNoPortalAccess={() => setRefused(true)}
        initialError={search.error ? socialErrorMessage(search.error, search.error_description) : null}
      />
    </AuthCard>
  );
}

/**
 * Not an error: an account nobody has added to an organization yet, with nothing to start or
 * request (decision 045's "closed"). SPEC §8's words, word for word, then whom to write to and
 * the way back to the form. SPEC §4 has already signed them out, so the button offers another
 * account rather than a sign-out.
 */
function NoOrganization({ onOtherAccount }: { onOtherAccount: () => void }) {
  const policy = useQuery(policyQueryOptions());
  const contact = policy.data?.contactEmail;
  return (
    <AuthCard title="You're not in an organization yet">
      <div className="flex flex-col gap-4 text-sm">
        <div className="flex items-start gap-3">
          <Users className="mt-0.5 size-5 shrink-0 text-primary" />
          <p>{NO_PORTAL_ACCESS_MESSAGE}</p>
        </div>
        {contact ? (
          <p>
            Write to{" "}
            <a href={`mailto:${contact}`} className="font-medium underline underline-offset-4">
              {contact}
            </a>{" "}
            to have an organization set up.
          </p>
        ) : null}
        <p className="text-muted-foreground">
          If someone in your organization invited you, open the link in the invitation e-mail and sign in
          there. You have been signed out until then.
        </p>
        <Button type="button" variant="outline" className="w-full" onClick={onOtherAccount}>
          Sign in with another account
        </Button>
      </div>
    </AuthCard>
  );
}
