import { Link } from "@tanstack/react-router";
import * as React from "react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { AuthCard } from "~/features/auth/auth-card";
import { authApi } from "~/lib/auth/api";

export function ForgotPasswordPage() {
  const [state, setState] = React.useState<"idle" | "pending" | "sent" | "error">("idle");
  const [message, setMessage] = React.useState("");
  return (
    <AuthCard
      title="Reset password"
      description="We'll e-mail you a link to choose a new password."
      footer={
        <Link to="/login" className="hover:underline">
          Back to sign in
        </Link>
      }
    >
      {state === "sent" ? (
        <p role="status" className="text-sm">
          {message}
        </p>
      ) : (
        <form
          method="post"
          className="flex flex-col gap-4"
          onSubmit={async (e) => {
            e.preventDefault();
            setState("pending");
            try {
              const email = String(new FormData(e.currentTarget).get("email"));
              await authApi.requestPasswordReset(email, "/reset-password");
              setMessage("If this email exists in our system, check your email for the reset link");
              setState("sent");
            } catch (err) {
              setMessage(err instanceof Error ? err.message : "Failed");
              setState("error");
            }
          }}
        >
          <Field label="E-mail" required error={state === "error" ? message : undefined}>
            <Input name="email" type="email" autoComplete="email" required />
          </Field>
          <Button type="submit" disabled={state === "pending"}>
            Send reset link
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
