import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import * as React from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Button } from "~/components/ui/button";
import { AuthCard } from "~/features/auth/auth-card";
import { authApi } from "~/lib/auth/api";
import { sessionQueryOptions } from "~/lib/auth/session";
import { useAuth } from "~/lib/auth/use-auth";
import { formatDate, titleCase } from "~/lib/format";
import { withNotice } from "~/lib/notice";

const route = getRouteApi("/accept-invitation");

type CallError = Error & { status?: number; code?: string };

/** GET /api/invitations/<secret> (worker/http/invitations.ts): the invitation and how it stands with the visitor. */
interface InvitationView {
  id: string;
  state: "open" | "accepted" | "declined" | "revoked" | "expired";
  organizationName: string;
  role: string;
  email: string;
  invitedBy: string | null;
  expiresAt: number;
  timeZone: string;
  signedInAs: string | null;
  emailVerified: boolean | null;
  memberRole: string | null;
}

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { credentials: "include", ...init });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok)
    throw Object.assign(new Error(String(body.message ?? res.statusText)), {
      status: res.status,
      code: typeof body.code === "string" ? body.code : undefined,
    });
  return body as T;
}

/**
 * SPEC §2's /accept-invitation, outside the portal (decision 044): the link's secret is the
 * capability, so the page says the invitation's state to anyone holding it, signed in or not, and
 * walks each invitee to it: create an account or sign in (and come back here), verify the address
 * (the mail comes back here), accept or decline; someone else signed in is offered to switch.
 */
export function AcceptInvitationPage() {
  const { id, error: verificationError } = route.useSearch();
  const auth = useAuth();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const here = `/accept-invitation?id=${encodeURIComponent(id)}`;
  const q = useQuery({
    queryKey: ["invitation", id, auth.user?.id ?? null],
    queryFn: () => call<InvitationView>(`/api/invitations/${encodeURIComponent(id)}`),
    enabled: id !== "" && !auth.isLoading,
    retry: false,
  });
  const accept = useMutation({
    mutationFn: () => call(`/api/invitations/${encodeURIComponent(id)}/accept`, { method: "POST" }),
    onSuccess: async () => {
      // The server opens the portal on the organization just joined.
      await qc.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
      await navigate({ href: "/dashboard?notice=invitation-accepted" });
    },
    onError: () => void q.refetch(),
  });
  const decline = useMutation({
    mutationFn: () => call(`/api/invitations/${encodeURIComponent(id)}/decline`, { method: "POST" }),
    onSuccess: () => q.refetch(),
  });
  // The verification link brings the invitee back here, verified.
  const verify = useMutation({
    mutationFn: (email: string) => authApi.sendVerificationEmail(email, withNotice(here, "email-verified")),
  });
  const [declining, setDeclining] = React.useState(false);

  // The route keeps a link without its id (issue 20): say so instead of asking to sign in for nothing.
  if (!id)
    return (
      <AuthCard title="Invitation" description="This invitation link is incomplete.">
        <p className="text-muted-foreground text-sm">
          Open the link from the invitation e-mail again, or ask the person who invited you to send a new one.
        </p>
        <Link to="/" className="text-sm underline">
          Go to Almoner
        </Link>
      </AuthCard>
    );
  const footer = auth.user ? (
    <span className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1">
      <span>Signed in as {auth.user.email}</span>
      {auth.capabilities?.portalAccess ? (
        <Link to="/dashboard" className="underline-offset-4 hover:underline">
          Go to the dashboard
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
  ) : undefined;
  const inv = q.data;
  if (q.error) {
    const err = q.error as CallError;
    return (
      <AuthCard
        title={
          err.status === 404 ? "This invitation link doesn't work" : "The invitation could not be opened"
        }
        footer={footer}
      >
        <p role="alert" className="text-sm">
          {err.message}
        </p>
      </AuthCard>
    );
  }
  if (!inv)
    return (
      <AuthCard title="Invitation" footer={footer}>
        <p className="text-muted-foreground text-sm" aria-busy="true">
          Loading…
        </p>
      </AuthCard>
    );

  const who = inv.invitedBy ?? "The organization";
  const offer = (
    <p className="text-sm">
      {inv.invitedBy ? `${inv.invitedBy} invited you to join ` : "You're invited to join "}
      <strong>{inv.organizationName}</strong> as <strong>{titleCase(inv.role)}</strong>.
    </p>
  );
  if (inv.state === "expired")
    return (
      <AuthCard title="This invitation has expired" footer={footer}>
        <p className="text-sm">
          {who} invited {inv.email} to join <strong>{inv.organizationName}</strong>; the invitation expired on{" "}
          {formatDate(inv.expiresAt, inv.timeZone)}. Ask {inv.invitedBy ?? "them"} to send a new one.
        </p>
      </AuthCard>
    );
  if (inv.state === "revoked")
    return (
      <AuthCard title="This invitation was withdrawn" footer={footer}>
        <p className="text-sm">
          <strong>{inv.organizationName}</strong> withdrew the invitation for {inv.email}. If you still expect
          to join, ask {inv.invitedBy ?? "them"} for a new one.
        </p>
      </AuthCard>
    );
  if (inv.state === "declined")
    return (
      <AuthCard title="This invitation was declined" footer={footer}>
        <p className="text-sm">
          The invitation for {inv.email} to join <strong>{inv.organizationName}</strong> was declined. If that
          was a mistake, ask {inv.invitedBy ?? "them"} for a new one.
        </p>
      </AuthCard>
    );
  if (inv.state === "accepted")
    return inv.memberRole ? (
      <AuthCard title={`You're a member of ${inv.organizationName}`} footer={footer}>
        <div className="flex flex-col gap-4 text-sm">
          <p>You accepted this invitation. You are {titleCase(inv.memberRole)} there.</p>
          <Button asChild className="w-full">
            <Link to="/dashboard">Go to the dashboard</Link>
          </Button>
        </div>
      </AuthCard>
    ) : (
      <AuthCard title="This invitation has been accepted" footer={footer}>
        <div className="flex flex-col gap-4 text-sm">
          <p>
            The invitation for {inv.email} to join <strong>{inv.organizationName}</strong> was accepted
            already.
            {auth.user ? "" : " If it was yours, sign in to open the portal."}
          </p>
          {auth.user ? null : (
            <Button asChild className="w-full">
              <Link to="/login">Sign in</Link>
            </Button>
          )}
        </div>
      </AuthCard>
    );

  // Open.
  if (!inv.signedInAs)
    return (
      <AuthCard title="You're invited" description={`The invitation is for ${inv.email}.`}>
        <div className="flex flex-col gap-4">
          {offer}
          <Button asChild className="w-full">
            <Link to="/login" search={{ redirect: here }}>
              Sign in to accept
            </Link>
          </Button>
          <p className="text-center text-muted-foreground text-sm">
            No account yet?{" "}
            <Link to="/sign-up" search={{ redirect: here, email: inv.email }} className="underline">
              Create one with that address
            </Link>
          </p>
        </div>
      </AuthCard>
    );
  if (inv.signedInAs !== inv.email)
    return (
      <AuthCard title="This invitation is for someone else" footer={footer}>
        <div className="flex flex-col gap-4 text-sm">
          <p>
            {who} invited {inv.email} to join <strong>{inv.organizationName}</strong> as{" "}
            <strong>{titleCase(inv.role)}</strong>.
          </p>
          <p role="alert" className="text-muted-foreground">
            You're signed in as {inv.signedInAs}. Sign out, then sign in (or create an account) with{" "}
            {inv.email}: you come back here.
          </p>
          <Button className="w-full" onClick={() => void auth.signOut({ redirect: here })}>
            Sign out and switch account
          </Button>
        </div>
      </AuthCard>
    );
  if (inv.memberRole)
    return (
      <AuthCard title={`You're already a member of ${inv.organizationName}`} footer={footer}>
        <div className="flex flex-col gap-4 text-sm">
          <p>
            You are {titleCase(inv.memberRole)} there. This older invitation, as {titleCase(inv.role)},
            changes nothing: a role is changed on the organization's Members page.
          </p>
          <Button asChild className="w-full">
            <Link to="/dashboard">Go to the dashboard</Link>
          </Button>
        </div>
      </AuthCard>
    );
  if (!inv.emailVerified)
    return (
      <AuthCard title="You're invited" footer={footer}>
        <div className="flex flex-col gap-4">
          {offer}
          <div role={verificationError ? "alert" : undefined} className="flex flex-col gap-1 text-sm">
            <p className="font-medium">Verify your e-mail address first</p>
            <p className="text-muted-foreground">
              {verificationError
                ? "That verification link has expired or was used already. Send a new one: it brings you back here."
                : `To accept, confirm that ${inv.email} is yours: open the verification link we mailed you, or send a new one. It brings you back here.`}
            </p>
          </div>
          {verify.isSuccess ? (
            <p role="status" className="text-sm">
              Verification e-mail sent to {inv.email}. Open its link to continue.
            </p>
          ) : null}
          {verify.error ? (
            <p role="alert" className="text-destructive text-sm">
              {verify.error.message}
            </p>
          ) : null}
          <Button onClick={() => verify.mutate(inv.email)} disabled={verify.isPending || verify.isSuccess}>
            Send verification e-mail
          </Button>
        </div>
      </AuthCard>
    );
  const err = (accept.error ?? decline.error) as CallError | null;
  return (
    <AuthCard title="You're invited" footer={footer}>
      <div className="flex flex-col gap-4">
        {offer}
        {err ? (
          <p role="alert" className="text-destructive text-sm">
            {err.message}
          </p>
        ) : null}
        <Button onClick={() => accept.mutate()} disabled={accept.isPending || decline.isPending}>
          Accept invitation
        </Button>
        <Button
          variant="outline"
          onClick={() => setDeclining(true)}
          disabled={accept.isPending || decline.isPending}
        >
          Decline
        </Button>
      </div>
      <ConfirmDialog
        open={declining}
        onOpenChange={setDeclining}
        title={`Decline the invitation to ${inv.organizationName}?`}
        description={`${who} is not told why. To join later, you need a new invitation.`}
        confirmLabel="Decline invitation"
        cancelLabel="Keep invitation"
        destructive
        onConfirm={() => decline.mutateAsync()}
      />
    </AuthCard>
  );
}
