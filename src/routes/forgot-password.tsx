import { createFileRoute, Link } from "@tanstack/react-router";
import { AuthCard } from "~/features/auth/auth-card";

export const Route = createFileRoute("/forgot-password")({
  head: () => ({ meta: [{ title: "Reset password · Almoner" }] }),
  component: () => (
    <AuthCard title="Reset password" footer={<Link to="/login">Back to sign in</Link>}>
      <p className="text-muted-foreground text-sm">Password reset is not available yet.</p>
    </AuthCard>
  ),
});
