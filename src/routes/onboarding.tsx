import { createFileRoute, redirect } from "@tanstack/react-router";
import { z } from "zod/mini";
import { OnboardingPage } from "~/features/onboarding/onboarding-page";
import { lenient } from "~/lib/auth/search";
import { sessionQueryOptions } from "~/lib/auth/session";
import { withoutNotice } from "~/lib/notice";

/**
 * /onboarding (decisions 044, 045): outside the portal's access rule, for any signed-in person.
 * Someone without portal access stays only when it has something for them (starting or requesting
 * an organization, or their request); anyone else is taken to /login, which signs them out with
 * SPEC §8's message (SPEC §4, §6).
 */
export const Route = createFileRoute("/onboarding")({
  validateSearch: z.object({
    notice: lenient(z.string()),
    /** A verification link that failed comes back with its SPEC §8 code (token_expired, …). */
    error: lenient(z.string()),
  }),
  beforeLoad: async ({ context, location, search }) => {
    const snapshot = await context.queryClient.ensureQueryData(sessionQueryOptions());
    if (!snapshot.payload?.user)
      throw redirect({
        to: "/login",
        search: { redirect: withoutNotice(location.href), notice: search.notice },
      });
    const caps = snapshot.capabilities;
    const something = caps?.portalAccess || caps?.newOrganization || caps?.organizationRequest;
    if (!something && !snapshot.accessCheckFailed)
      throw redirect({ to: "/login", search: { denied: true, notice: search.notice } });
    await context.loadTrpc();
  },
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.onboarding.status.queryOptions()),
  head: () => ({ meta: [{ title: "Your organization · Almoner" }] }),
  component: OnboardingPage,
});
