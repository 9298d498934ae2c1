import { NO_PORTAL_ACCESS_MESSAGE } from "@core/permissions";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { z } from "zod/mini";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { AlertCircle, LogIn } from "~/components/ui/shell-icons";
import { Spinner } from "~/components/ui/spinner";
import { ACCESS_CHECK_FAILED } from "~/lib/auth/access-check";
import { safeRedirect } from "~/lib/auth/guards";
import { socialProvidersQuery, startSocialSignIn } from "~/lib/auth/social";
import { AuthError } from "~/lib/auth/types";
import { useAuth } from "~/lib/auth/use-auth";

const schema = z.object({
  email: z.email("Enter a valid e-mail address"),
  password: z.string().check(z.minLength(1, "Enter your password")),
});

export function LoginForm({
  destination,
  initialError,
  onNoPortalAccess,
}: {
  /** Where the person was going (`?redirect`); absent: the portal's default (decision 044). */
  destination?: string;
  initialError?: string | null;
  /** The account exists but belongs to no organization: the page explains instead of an error. */
  onNoPortalAccess?: () => void;
}) {
  const auth = useAuth();
  const navigate = useNavigate();
  const redirectTo = safeRedirect(destination);
  const [pending, setPending] = React.useState(false);
  const [error, setError] = React.useState<string | null>(initialError ?? null);
  // The access check failed after a good password: "Try again" repeats the check, not the sign-in.
  const [retry, setRetry] = React.useState(false);
  const [fieldErrors, setFieldErrors] = React.useState<{ email?: string; password?: string }>({});
  // Until hydration the form cannot run its handler; a native submit would put the password in
  // the URL. So it posts (never GET) and the button waits for the app.
  const [hydrated, setHydrated] = React.useState(false);
  React.useEffect(() => setHydrated(true), []);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = schema.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!parsed.success) {
      const flat = z.flattenError(parsed.error).fieldErrors;
      setFieldErrors({ email: flat.email?.[0], password: flat.password?.[0] });
      return;
    }
    setFieldErrors({});
    await go(() =>
      auth.signIn(parsed.data.email, parsed.data.password, form.get("rememberMe") === "on", destination),
    );
  }

  async function go(attempt: () => Promise<string>) {
    setError(null);
    setRetry(false);
    setPending(true);
    try {
      await navigate({ href: await attempt(), replace: true });
    } catch (err) {
      if (err instanceof AuthError && err.message === NO_PORTAL_ACCESS_MESSAGE && onNoPortalAccess)
        return onNoPortalAccess();
      setRetry(err instanceof AuthError && err.code === ACCESS_CHECK_FAILED);
      setError(err instanceof AuthError || err instanceof Error ? err.message : "Sign in failed");
    } finally {
      setPending(false);
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={pending}>
      {error ? (
        <Alert variant="destructive" role="alert">
          <AlertCircle />
          <AlertDescription>
            {error}
            {retry ? (
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="mt-2"
                disabled={pending}
                onClick={() => void go(() => auth.land(destination))}
              >
                Try again
              </Button>
            ) : null}
          </AlertDescription>
        </Alert>
      ) : null}
      <Field label="E-mail" error={fieldErrors.email} required>
        <Input name="email" type="email" autoComplete="username" inputMode="email" autoFocus />
      </Field>
      <Field label="Password" error={fieldErrors.password} required>
        <Input name="password" type="password" autoComplete="current-password" />
      </Field>
      <div className="flex items-center justify-between gap-2">
        <label className="flex items-center gap-2 text-sm">
          {/* Native: the radix checkbox cost /login ~4 KB gzip. */}
          <input
            type="checkbox"
            name="rememberMe"
            defaultChecked
            className="size-4 shrink-0 rounded-[4px] accent-primary outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          />
          Remember me
        </label>
        <Link to="/forgot-password" className="text-primary text-sm underline-offset-4 hover:underline">
          Forgot password?
        </Link>
      </div>
      <Button type="submit" disabled={pending || !hydrated} className="w-full">
        {pending ? <Spinner className="size-4" /> : null}
        {pending ? "Signing in..." : "Sign in"}
      </Button>
      <SocialButtons redirectTo={redirectTo} onError={setError} />
    </form>
  );
}

/** "Continue with <Provider>" for the enabled providers only (none configured → nothing shown). */
function SocialButtons({ redirectTo, onError }: { redirectTo: string; onError: (message: string) => void }) {
  const providers = useQuery(socialProvidersQuery());
  const [busy, setBusy] = React.useState<string | null>(null);
  if (!providers.data?.length) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="social-sign-in">
      <div className="text-muted-foreground flex items-center gap-3 text-xs uppercase">
        <span className="bg-border h-px flex-1" />
        or
        <span className="bg-border h-px flex-1" />
      </div>
      {providers.data.map((p) => (
        <Button
          key={p.id}
          type="button"
          variant="outline"
          className="w-full"
          disabled={busy !== null}
          onClick={async () => {
            setBusy(p.id);
            try {
              await startSocialSignIn(p.id, redirectTo);
            } catch (err) {
              onError(err instanceof Error ? err.message : "Sign in failed");
              setBusy(null);
            }
          }}
        >
          {busy === p.id ? <Spinner className="size-4" /> : <LogIn />}
          Continue with {p.name}
        </Button>
      ))}
    </div>
  );
}
