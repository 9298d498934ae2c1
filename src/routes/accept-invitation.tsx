import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { AcceptInvitationPage } from "~/features/auth/accept-invitation-page";
import { lenient } from "~/lib/auth/search";

export const Route = createFileRoute("/accept-invitation")({
  // SPEC §2's `id`: the mailed link's secret (decision 017), not the invitation's public id.
  // Required (SPEC §5), but a link without it (or with a list) opens the page, which says the link
  // is incomplete, rather than an error page with a 500 (issue 20). Outside the portal's access
  // rule (decision 044): the page decides what its visitor may do.
  validateSearch: z.object({
    id: z.catch(z.string(), ""),
    /** A verification link that failed comes back with its SPEC §8 code (token_expired, …). */
    error: lenient(z.string()),
  }),
  head: () => ({ meta: [{ title: "Invitation · Almoner" }] }),
  component: AcceptInvitationPage,
});
