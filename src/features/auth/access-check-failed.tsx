import { useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { AuthCard } from "~/features/auth/auth-card";
import { ACCESS_CHECK_FAILED_MESSAGE } from "~/lib/auth/access-check";
import { AuthError } from "~/lib/auth/types";
import { useAuth } from "~/lib/auth/use-auth";

/**
 * Signed in, but the access check failed (decision 044): an error with a retry, never "no access"
 * and never a sign-out. "Try again" asks again and goes where the sign-in was going.
 */
export function AccessCheckFailed({ destination }: { destination?: string }) {
  const auth = useAuth();
  const navigate = useNavigate();
  const [pending, setPending] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);
  return (
    <AuthCard title="Signing in">
      <div className="flex flex-col gap-4 text-sm">
        <p role="alert" className="text-destructive">
          {error ?? ACCESS_CHECK_FAILED_MESSAGE}
        </p>
        <Button
          type="button"
          disabled={pending}
          onClick={async () => {
            setPending(true);
            setError(null);
            try {
              await navigate({ href: await auth.land(destination), replace: true });
            } catch (err) {
              setError(err instanceof AuthError ? err.message : ACCESS_CHECK_FAILED_MESSAGE);
            } finally {
              setPending(false);
            }
          }}
        >
          {pending ? <Spinner className="size-4" /> : null}
          Try again
        </Button>
        <Button type="button" variant="outline" onClick={() => void auth.signOut()}>
          Sign out
        </Button>
      </div>
    </AuthCard>
  );
}
