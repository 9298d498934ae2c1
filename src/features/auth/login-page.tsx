import { NO_PORTAL_ACCESS_MESSAGE } from "@core/permissions";
import { getRouteApi, Link } from "@tanstack/react-router";
import * as React from "react";
import { AuthCard } from "~/features/auth/auth-card";
import { LoginForm } from "~/features/auth/login-form";
import { safeRedirect } from "~/lib/auth/guards";
import { socialErrorMessage } from "~/lib/auth/social";
import { useAuth } from "~/lib/auth/use-auth";

const route = getRouteApi("/login");

export function LoginPage() {
  const search = route.useSearch();
  const auth = useAuth();
  // Signed in but without portal access (the guard above let them stay): sign out at once.
  const deniedSession = !!auth.user && !auth.capabilities?.portalAccess;
  React.useEffect(() => {
    // SPEC §4: a user without portal access is signed out at once.
    if (deniedSession) void auth.signOut();
  }, [deniedSession, auth.signOut]);
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
        initialError={
          search.denied || deniedSession
            ? NO_PORTAL_ACCESS_MESSAGE
            : search.error
              ? socialErrorMessage(search.error, search.error_description)
              : null
        }
      />
    </AuthCard>
  );
}
