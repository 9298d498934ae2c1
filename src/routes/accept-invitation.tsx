import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { AcceptInvitationPage } from "~/features/auth/accept-invitation-page";

export const Route = createFileRoute("/accept-invitation")({
  // SPEC §2's `id`: the mailed link's secret (decision 017), not the invitation's public id.
  // Required (SPEC §5), but a link without it (or with a list) opens the page, which says the link
  // is incomplete, rather than an error page with a 500 (issue 20).
  validateSearch: z.object({ id: z.catch(z.string(), "") }),
  head: () => ({ meta: [{ title: "Invitation · Almoner" }] }),
  component: AcceptInvitationPage,
});
