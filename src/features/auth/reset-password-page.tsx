import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { NewPasswordField } from "~/components/new-password-field";
import { Button } from "~/components/ui/button";
import { AuthCard } from "~/features/auth/auth-card";
import { authApi } from "~/lib/auth/api";
import { isNewPasswordError } from "~/lib/auth/types";

const route = getRouteApi("/reset-password");

export function ResetPasswordPage() {
  const { token, error } = route.useSearch();
  const navigate = useNavigate();
  const [problem, setProblem] = React.useState<string | null>(
    error === "INVALID_TOKEN" ? "This link is invalid or has expired. Ask for a new one." : null,
  );
  const [passwordError, setPasswordError] = React.useState<string | null>(null);
  const [pending, setPending] = React.useState(false);
  return (
    <AuthCard
      title="Choose a new password"
      footer={
        <Link to="/forgot-password" className="hover:underline">
          Ask for a new link
        </Link>
      }
    >
      <form
        method="post"
        className="flex flex-col gap-4"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!token) return;
          setPending(true);
          setProblem(null);
          setPasswordError(null);
          try {
            await authApi.resetPassword(String(new FormData(e.currentTarget).get("password")), token);
            await navigate({ to: "/login", search: { notice: "password-reset" } });
          } catch (err) {
            const message = err instanceof Error ? err.message : "Failed";
            // A refused password (too short, too common) next to the field; a bad link above it.
            if (isNewPasswordError(err)) setPasswordError(message);
            else setProblem(message);
          } finally {
            setPending(false);
          }
        }}
      >
        {problem ? (
          <p role="alert" className="text-destructive text-sm">
            {problem}
          </p>
        ) : null}
        <NewPasswordField label="New password" required error={passwordError} disabled={!token} />
        <Button type="submit" disabled={!token || pending}>
          Save password
        </Button>
      </form>
    </AuthCard>
  );
}
