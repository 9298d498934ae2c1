import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod";
import { AuthCard } from "~/features/auth/auth-card";

export const Route = createFileRoute("/accept-invitation")({
  validateSearch: z.object({ id: z.string() }),
  head: () => ({ meta: [{ title: "Invitation · Almoner" }] }),
  component: () => (
    <AuthCard title="Invitation" description="Invitations are not available yet.">
      <p className="text-muted-foreground text-sm">Ask the person who invited you to add you directly.</p>
    </AuthCard>
  ),
});
