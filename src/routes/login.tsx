import { createFileRoute, redirect } from "@tanstack/react-router";
import { z } from "zod/mini";
import { LoginPage } from "~/features/auth/login-page";
import { landingFor } from "~/lib/auth/landing";
import { policyQueryOptions } from "~/lib/auth/policy";
import { lenient } from "~/lib/auth/search";
import { sessionQueryOptions } from "~/lib/auth/session";
import { withNotice } from "~/lib/notice";

export const Route = createFileRoute("/login")({
  // A malformed value (a list, an object: the router reads JSON in search values) is dropped, never
  // an error page (issue 20); e2e/routes.test.ts opens every route with such values.
  validateSearch: z.object({
    redirect: lenient(z.string()),
    denied: lenient(z.boolean()),
    /** Social sign-in failures come back here (SPEC §8 redirect codes). */
    error: lenient(z.string()),
    error_description: lenient(z.string()),
    /** A success to say on arrival (src/lib/notice.ts); the page takes it out of the URL. */
    notice: lenient(z.string()),
  }),
  beforeLoad: async ({ context, search }) => {
    const snapshot = await context.queryClient.ensureQueryData(sessionQueryOptions());
    const user = snapshot.payload?.user;
    // Guests only (SPEC §2): a signed-in user goes where they land (src/lib/auth/landing.ts); one
    // with nowhere to go stays, and the page signs them out (SPEC §4).
    const to = user ? landingFor(snapshot.capabilities, search.redirect) : null;
    if (to) throw redirect({ href: withNotice(to, search.notice), replace: true });
    // The refusal names whom to write to: rendered with the page.
    if (user || search.denied) await context.queryClient.ensureQueryData(policyQueryOptions());
  },
  head: () => ({ meta: [{ title: "Sign in · Almoner" }] }),
  component: LoginPage,
});
