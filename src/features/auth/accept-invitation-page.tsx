import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { Button } from "~/components/ui/button";
import { AuthCard } from "~/features/auth/auth-card";
import { authApi } from "~/lib/auth/api";
import { sessionQueryKey } from "~/lib/auth/session";
import { useAuth } from "~/lib/auth/use-auth";
import { titleCase } from "~/lib/format";

const route = getRouteApi("/accept-invitation");

type CallError = Error & { status?: number; code?: string };

async function call(path: string, init?: RequestInit) {
  const res = await fetch(path, { credentials: "include", ...init });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok)
    throw Object.assign(new Error(String(body.message ?? res.statusText)), {
      status: res.status,
      code: typeof body.code === "string" ? body.code : undefined,
    });
  return body;
}

export function AcceptInvitationPage() {
  const { id } = route.useSearch();
  const auth = useAuth();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const here = `/accept-invitation?id=${encodeURIComponent(id)}`;
  // The verification link comes back here and says so (src/lib/notice.ts).
  const verifiedHere = `${here}&notice=email-verified`;
  const q = useQuery({
    queryKey: ["invitation", id],
    queryFn: () =>
      call(`/api/invitations/${encodeURIComponent(id)}`) as Promise<{
        organizationName: string;
        role: string;
        email: string;
        /** The inviter's name, when the API provides it. */
        invitedBy?: string | null;
        /** Accepting needs the invited address verified; the page offers the mail first. */
        emailVerified?: boolean;
      }>,
    enabled: auth.isAuthenticated && id !== "",
    retry: false,
  });
  const accept = useMutation({
    mutationFn: () => call(`/api/invitations/${encodeURIComponent(id)}/accept`, { method: "POST" }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: sessionQueryKey });
      await navigate({ href: "/dashboard?notice=invitation-accepted" });
    },
  });
  const decline = useMutation({
    mutationFn: () => call(`/api/invitations/${encodeURIComponent(id)}/decline`, { method: "POST" }),
    onSuccess: () => navigate({ to: "/" }),
  });
  // The verification link brings the invitee back here, verified.
  const verify = useMutation({
    mutationFn: (email: string) => authApi.sendVerificationEmail(email, verifiedHere),
  });
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
  if (auth.isLoading)
    return (
      <AuthCard title="Invitation">
        <p className="text-muted-foreground text-sm">Loading…</p>
      </AuthCard>
    );
  if (!auth.isAuthenticated) {
    return (
      <AuthCard
        title="You're invited"
        description="Sign in with the e-mail address the invitation was sent to."
      >
        <Button asChild className="w-full">
          <Link to="/login" search={{ redirect: here }}>
            Sign in to accept
          </Link>
        </Button>
        <p className="text-center text-muted-foreground text-sm">
          No account yet?{" "}
          <Link to="/sign-up" search={{ redirect: here }} className="underline">
            Create one with that address
          </Link>
        </p>
      </AuthCard>
    );
  }
  const err = (q.error ?? accept.error ?? decline.error) as CallError | null;
  const unverified = q.data?.emailVerified === false || err?.code === "EMAIL_NOT_VERIFIED";
  return (
    <AuthCard
      title="You're invited"
      footer={
        <Link to="/dashboard" className="hover:underline">
          Go to the dashboard
        </Link>
      }
    >
      {unverified && q.data ? (
        <div className="flex flex-col gap-4">
          <p className="text-sm">
            {q.data.invitedBy ? `${q.data.invitedBy} invited you to join ` : "Join "}
            <strong>{q.data.organizationName}</strong> as <strong>{titleCase(q.data.role)}</strong>.
          </p>
          <div role="alert" className="flex flex-col gap-1 text-sm">
            <p className="font-medium">Verify your e-mail address first</p>
            <p className="text-muted-foreground">
              To accept, confirm that {q.data.email} is yours: open the verification link we mailed you, or
              send a new one. It brings you back here.
            </p>
          </div>
          {verify.isSuccess ? (
            <p role="status" className="text-sm">
              Verification e-mail sent to {q.data.email}. Open its link to continue.
            </p>
          ) : null}
          {verify.error ? (
            <p role="alert" className="text-destructive text-sm">
              {verify.error.message}
            </p>
          ) : null}
          <Button
            onClick={() => q.data && verify.mutate(q.data.email)}
            disabled={verify.isPending || verify.isSuccess}
          >
            Send verification e-mail
          </Button>
        </div>
      ) : err ? (
        <div role="alert" className="flex flex-col gap-1 text-sm">
          <p className="font-medium text-destructive">
            {err.status === 410
              ? "This invitation has expired"
              : err.status === 403
                ? "This invitation is for someone else"
                : err.status === 404
                  ? "This invitation is no longer valid"
                  : "The invitation could not be opened"}
          </p>
          <p className="text-muted-foreground">{err.message}</p>
        </div>
      ) : q.data ? (
        <div className="flex flex-col gap-4">
          <p className="text-sm">
            {q.data.invitedBy ? `${q.data.invitedBy} invited you to join ` : "Join "}
            <strong>{q.data.organizationName}</strong> as <strong>{titleCase(q.data.role)}</strong>.
          </p>
          <Button onClick={() => accept.mutate()} disabled={accept.isPending || decline.isPending}>
            Accept invitation
          </Button>
          <Button
            variant="outline"
            onClick={() => decline.mutate()}
            disabled={accept.isPending || decline.isPending}
          >
            Decline
          </Button>
        </div>
      ) : (
        <p className="text-muted-foreground text-sm">Loading…</p>
      )}
    </AuthCard>
  );
}
