import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod/mini";
import { AcceptInvitationPage } from "~/features/auth/accept-invitation-page";

export const Route = createFileRoute("/accept-invitation")({
  // SPEC §2's `id`: the mailed link's secret (decision 017), not the invitation's public id.
  validateSearch: z.object({ id: z.string() }),
  head: () => ({ meta: [{ title: "Invitation · Almoner" }] }),
  component: AcceptInvitationPage,
});
