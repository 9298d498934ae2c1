import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { Building2 } from "lucide-react";
import * as React from "react";
import { Button } from "~/components/ui/button";
import { AuthCard } from "~/features/auth/auth-card";
import { authApi } from "~/lib/auth/api";
import { useAuth } from "~/lib/auth/use-auth";
import { errorInfo, formatDate } from "~/lib/format";
import { withNotice } from "~/lib/notice";
import { useTRPC } from "~/lib/trpc";
import { countryName, monthName, NewOrganizationForm } from "./new-organization-form";

const route = getRouteApi("/onboarding");

/**
 * /onboarding (decision 045), outside the portal (decision 044): a signed-up person sets up their
 * organization ("open"), asks for one and follows the request ("approval"), or is told whom to
 * write to ("closed"). Members reach it from "New organization" in the account menu.
 */
export function OnboardingPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const auth = useAuth();
  const { error: verificationError } = route.useSearch();
  const { data: status } = useSuspenseQuery(trpc.onboarding.status.queryOptions());
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const onError = (e: unknown) => {
    const info = errorInfo(e);
    setErrors({ ...info.fields, _: info.message });
  };
  const create = useMutation(
    trpc.onboarding.create.mutationOptions({
      onSuccess: async () => {
        // The session's capabilities now hold the new organization (and portal access).
        await qc.invalidateQueries();
        await navigate({ href: "/dashboard?notice=organization-created" });
      },
      onError,
    }),
  );
  const request = useMutation(
    trpc.onboarding.request.mutationOptions({
      onSuccess: async () => {
        setErrors({});
        await qc.invalidateQueries();
      },
      onError,
    }),
  );
  const verify = useMutation({
    mutationFn: () =>
      authApi.sendVerificationEmail(status.email, withNotice("/onboarding", "email-verified")),
  });
  const footer = (
    <span className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1">
      <span>Signed in as {status.email}</span>
      {auth.capabilities?.portalAccess ? (
        <Link to="/dashboard" className="underline-offset-4 hover:underline">
          Back to the dashboard
        </Link>
      ) : null}
      <button
        type="button"
        className="underline-offset-4 hover:underline"
        onClick={() => void auth.signOut()}
      >
        Sign out
      </button>
    </span>
  );
  const r = status.request;
  const contact = (
    <a href={`mailto:${status.contactEmail}`} className="font-medium underline underline-offset-4">
      {status.contactEmail}
    </a>
  );

  if (r?.status === "pending")
    return (
      <AuthCard title="Your request is under review" footer={footer} wide>
        <div className="flex flex-col gap-4 text-sm">
          <p>
            You asked for <strong>{r.name}</strong> on {formatDate(r.createdAt, r.timeZone)}. A platform
            administrator looks at each new organization; we e-mail {status.email} when it is decided.
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-muted-foreground">Country</dt>
            <dd>{countryName(r.country)}</dd>
            <dt className="text-muted-foreground">Currency</dt>
            <dd>{r.defaultCurrency}</dd>
            <dt className="text-muted-foreground">Time zone</dt>
            <dd>{r.timeZone}</dd>
            <dt className="text-muted-foreground">Fiscal year starts in</dt>
            <dd>{monthName(r.fiscalYearStartMonth)}</dd>
          </dl>
          <p className="text-muted-foreground">Questions: write to {contact}.</p>
        </div>
      </AuthCard>
    );

  const decided =
    r?.status === "declined" ? (
      <div
        role="status"
        className="mb-4 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm"
      >
        <p className="font-medium">Your request for {r.name} was declined</p>
        <p className="mt-1">{r.reason}</p>
        {status.newOrganization === "request" ? (
          <p className="mt-1 text-muted-foreground">You may send a new request below.</p>
        ) : null}
      </div>
    ) : r?.status === "approved" && r.organizationId && auth.capabilities?.portalAccess ? (
      <div role="status" className="mb-4 rounded-md border p-3 text-sm">
        <p>
          Your request for <strong>{r.organizationName ?? r.name}</strong> was approved.{" "}
          <Link to="/dashboard" className="underline underline-offset-4">
            Open the dashboard
          </Link>
        </p>
      </div>
    ) : null;

  if (!status.newOrganization)
    return (
      <AuthCard title="Setting up an organization" footer={footer}>
        {decided}
        <div className="flex flex-col gap-3 text-sm">
          <div className="flex items-start gap-3">
            <Building2 className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
            <p>New organizations are set up by the platform's administrators. Write to {contact}.</p>
          </div>
          <p className="text-muted-foreground">
            If someone in your organization invited you, open the link in the invitation e-mail.
          </p>
        </div>
      </AuthCard>
    );

  const asking = status.newOrganization === "request";
  if (!status.emailVerified)
    return (
      <AuthCard
        title="Verify your e-mail address"
        description={asking ? "Then request your organization." : "Then set up your organization."}
        footer={footer}
        wide
      >
        {decided}
        <div className="flex flex-col gap-4 text-sm">
          <p role={verificationError ? "alert" : undefined}>
            {verificationError
              ? "That verification link has expired or was used already. Send a new one: it brings you back here."
              : `The organization's owner is who we write to: confirm that ${status.email} is yours. Open the link we mailed you, or send a new one. It brings you back here.`}
          </p>
          {verify.isSuccess ? (
            <p role="status">Verification e-mail sent to {status.email}. Open its link to continue.</p>
          ) : null}
          {verify.error ? (
            <p role="alert" className="text-destructive">
              {verify.error.message}
            </p>
          ) : null}
          <Button onClick={() => verify.mutate()} disabled={verify.isPending || verify.isSuccess}>
            Send verification e-mail
          </Button>
        </div>
      </AuthCard>
    );

  return (
    <AuthCard
      title={asking ? "Request an organization" : "Set up your organization"}
      description={
        asking
          ? "A platform administrator looks at each new organization. We e-mail you when it is decided."
          : "You become its owner. The rest of its profile can be filled in later, on the Organization page."
      }
      footer={footer}
      wide
    >
      {decided}
      <NewOrganizationForm
        submitLabel={asking ? "Send request" : "Create organization"}
        pending={create.isPending || request.isPending}
        serverErrors={errors}
        initial={
          r?.status === "declined"
            ? {
                name: r.name,
                country: r.country,
                defaultCurrency: r.defaultCurrency as never,
                timeZone: r.timeZone,
                fiscalYearStartMonth: r.fiscalYearStartMonth,
              }
            : undefined
        }
        onSubmit={(input) => (asking ? request.mutate(input) : create.mutate(input))}
      />
    </AuthCard>
  );
}
