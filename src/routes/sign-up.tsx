import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { SignUpPage } from "~/features/auth/sign-up-page";
import { policyQueryOptions } from "~/lib/auth/policy";
import { lenient } from "~/lib/auth/search";

export const Route = createFileRoute("/sign-up")({
  validateSearch: z.object({
    redirect: lenient(z.string()),
    /** The invited address, filled in for the invitee (the invitation page links here with it). */
    email: lenient(z.string().check(z.maxLength(254))),
  }),
  // The page says what the account leads to (decision 045) from its first paint.
  beforeLoad: async ({ context }) => {
    await context.queryClient.ensureQueryData(policyQueryOptions());
  },
  head: () => ({ meta: [{ title: "Create an account · Almoner" }] }),
  component: SignUpPage,
});
