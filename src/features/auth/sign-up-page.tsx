import { isOutsidePortal } from "@core/outside-portal";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { NewPasswordField } from "~/components/new-password-field";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { AuthCard } from "~/features/auth/auth-card";
import { authApi } from "~/lib/auth/api";
import { safeRedirect } from "~/lib/auth/guards";
import { type OnboardingPolicy, policyQueryOptions } from "~/lib/auth/policy";
import { sessionQueryOptions } from "~/lib/auth/session";
import { isNewPasswordError } from "~/lib/auth/types";
import { withNotice } from "~/lib/notice";

const route = getRouteApi("/sign-up");

/** What the new account leads to, said before it is made (walkthrough H1, decision 045). */
function nextStep(policy: OnboardingPolicy | undefined, forInvitation: boolean): string | null {
  if (forInvitation) return "Use the address the invitation was sent to. You accept it next.";
  if (!policy) return null;
  if (policy.creation === "open")
    return "Next you set up your organization, or accept an invitation from yours.";
  if (policy.creation === "approval")
    return "Next you request an organization, which a platform administrator approves, or accept an invitation from yours.";
  return `To use the portal, accept an invitation from your organization, or write to ${policy.contactEmail} to have one set up.`;
}

export function SignUpPage() {
  const { redirect, email: invitedEmail } = route.useSearch();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const policy = useQuery(policyQueryOptions()).data;
  const [error, setError] = React.useState<string | null>(null);
  const [passwordError, setPasswordError] = React.useState<string | null>(null);
  const [done, setDone] = React.useState<{ email: string; signedIn: boolean } | null>(null);
  const [pending, setPending] = React.useState(false);
  // Where the person is going: the invitation they came from, else the onboarding page (decision
  // 044). The verification link sign-up mails comes back there, verified.
  const wanted = safeRedirect(redirect);
  const forInvitation = !!redirect && isOutsidePortal(wanted);
  const back = forInvitation ? wanted : "/onboarding";
  if (done) {
    return (
      <AuthCard
        title="Account created"
        footer={
          <Link
            to="/login"
            search={{ redirect: forInvitation ? back : undefined }}
            className="hover:underline"
          >
            Back to sign in
          </Link>
        }
      >
        {done.signedIn ? (
          // "closed": nothing to start; the verification matters for accepting an invitation later.
          <div className="flex flex-col gap-3 text-sm">
            <p>
              To use the portal, someone in your organization invites you from its Members page: open the link
              in their e-mail and accept it there. Accepting needs your address verified: open the link we
              sent to {done.email}.
            </p>
            {policy ? (
              <p className="text-muted-foreground">
                To have a new organization set up, write to{" "}
                <a href={`mailto:${policy.contactEmail}`} className="underline underline-offset-4">
                  {policy.contactEmail}
                </a>
                .
              </p>
            ) : null}
          </div>
        ) : (
          <p className="text-sm">
            Open the link we sent to {done.email} to verify your address. It brings you back{" "}
            {forInvitation ? "to the invitation" : "to set up your organization"}.
          </p>
        )}
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Create an account"
      description={nextStep(policy, forInvitation)}
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
          const email = String(f.get("email"));
          setPending(true);
          setError(null);
          setPasswordError(null);
          try {
            const res = await authApi.signUpEmail({
              name: String(f.get("name")),
              email,
              password: String(f.get("password")),
              callbackURL: withNotice(back, "email-verified"),
            });
            // The session as it is now (nothing on this page watches it, so an invalidation alone
            // would leave the guard of the next page reading the signed-out one).
            await qc.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
            // Signed in (no verification required to sign in): on to the invitation, or to the
            // onboarding page when it has something to offer; it asks for the verification itself.
            if (res.token && (forInvitation || policy?.creation !== "closed")) await navigate({ href: back });
            else setDone({ email, signedIn: !!res.token });
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
          <Input name="email" type="email" autoComplete="email" required defaultValue={invitedEmail} />
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
