import { useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { NewPasswordField } from "~/components/new-password-field";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { AuthCard } from "~/features/auth/auth-card";
import { authApi } from "~/lib/auth/api";
import { safeRedirect } from "~/lib/auth/guards";
import { sessionQueryKey } from "~/lib/auth/session";
import { isNewPasswordError } from "~/lib/auth/types";

const route = getRouteApi("/sign-up");

export function SignUpPage() {
  const { redirect } = route.useSearch();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [error, setError] = React.useState<string | null>(null);
  const [passwordError, setPasswordError] = React.useState<string | null>(null);
  const [done, setDone] = React.useState(false);
  const [pending, setPending] = React.useState(false);
  if (done) {
    return (
      <AuthCard
        title="Account created"
        footer={
          <Link to="/login" className="hover:underline">
            Back to sign in
          </Link>
        }
      >
        <p className="text-sm">
          We sent you a link to verify your e-mail. To use the portal, an administrator adds you to an
          organization, or you accept an invitation.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Create an account"
      footer={
        <Link to="/login" search={{ redirect }} className="hover:underline">
          I already have an account
        </Link>
      }
    >
      <form
        method="post"
        className="flex flex-col gap-4"
        onSubmit={async (e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          setPending(true);
          setError(null);
          setPasswordError(null);
          try {
            await authApi.signUpEmail({
              name: String(f.get("name")),
              email: String(f.get("email")),
              password: String(f.get("password")),
              // The verification link lands on the portal and says the address is verified
              // (src/lib/notice.ts); without an organization the guard takes the message to /login.
              callbackURL: "/dashboard?notice=email-verified",
            });
            await qc.invalidateQueries({ queryKey: sessionQueryKey });
            if (redirect) await navigate({ href: safeRedirect(redirect) });
            else setDone(true);
          } catch (err) {
            const message = err instanceof Error ? err.message : "Sign up failed";
            // A refused password (too short, too common) belongs next to the password field.
            if (isNewPasswordError(err)) setPasswordError(message);
            else setError(message);
          } finally {
            setPending(false);
          }
        }}
      >
        <Field label="Name" required>
          <Input name="name" autoComplete="name" required />
        </Field>
        <Field label="E-mail" required>
          <Input name="email" type="email" autoComplete="email" required />
        </Field>
        {error ? (
          <p role="alert" className="text-destructive text-sm">
            {error}
          </p>
        ) : null}
        <NewPasswordField label="Password" required error={passwordError} />
        <Button type="submit" disabled={pending}>
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}
