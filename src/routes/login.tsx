import { createFileRoute, redirect } from "@tanstack/react-router";
import { z } from "zod/mini";
import { LoginPage } from "~/features/auth/login-page";
import { safeRedirect } from "~/lib/auth/guards";
import { sessionQueryOptions } from "~/lib/auth/session";

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
