import { NO_PORTAL_ACCESS_MESSAGE } from "@core/permissions";
import { createFileRoute, Link, redirect } from "@tanstack/react-router";
import * as React from "react";
import { z } from "zod/mini";
import { AuthCard } from "~/features/auth/auth-card";
import { LoginForm } from "~/features/auth/login-form";
import { safeRedirect } from "~/lib/auth/guards";
import { sessionQueryOptions } from "~/lib/auth/session";
import { socialErrorMessage } from "~/lib/auth/social";
import { useAuth } from "~/lib/auth/use-auth";

export const Route = createFileRoute("/login")({
  validateSearch: z.object({
    redirect: z.optional(z.string()),
    denied: z.optional(z.boolean()),
    /** Social sign-in failures come back here (SPEC §8 redirect codes). */
    error: z.optional(z.string()),
    error_description: z.optional(z.string()),
  }),
  beforeLoad: async ({ context, search }) => {
    const snapshot = await context.queryClient.ensureQueryData(sessionQueryOptions());
    const user = snapshot.payload?.user;
    // Guests only: a signed-in user with portal access goes to the redirect, else /dashboard.
    if (user && snapshot.capabilities?.portalAccess) {
      throw redirect({ href: safeRedirect(search.redirect), replace: true });
    }
  },
  head: () => ({ meta: [{ title: "Sign in · Almoner" }] }),
  component: LoginPage,
});

function LoginPage() {
  const search = Route.useSearch();
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
