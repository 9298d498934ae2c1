import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import { z } from "zod/mini";
import { Button } from "~/components/ui/button";
import { AuthCard } from "~/features/auth/auth-card";
import { sessionQueryKey } from "~/lib/auth/session";
import { useAuth } from "~/lib/auth/use-auth";
import { titleCase } from "~/lib/format";

async function call(path: string, init?: RequestInit) {
  const res = await fetch(path, { credentials: "include", ...init });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw Object.assign(new Error(String(body.message ?? res.statusText)), { status: res.status });
  return body;
}

export const Route = createFileRoute("/accept-invitation")({
  validateSearch: z.object({ id: z.string() }),
  head: () => ({ meta: [{ title: "Invitation · Almoner" }] }),
  component: Accept,
});

function Accept() {
  const { id } = Route.useSearch();
  const auth = useAuth();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const here = `/accept-invitation?id=${encodeURIComponent(id)}`;
  const q = useQuery({
    queryKey: ["invitation", id],
    queryFn: () =>
      call(`/api/invitations/${encodeURIComponent(id)}`) as Promise<{
        organizationName: string;
        role: string;
        email: string;
        /** The inviter's name, when the API provides it. */
        invitedBy?: string | null;
      }>,
    enabled: auth.isAuthenticated,
    retry: false,
  });
  const accept = useMutation({
    mutationFn: () => call(`/api/invitations/${encodeURIComponent(id)}/accept`, { method: "POST" }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: sessionQueryKey });
      await navigate({ to: "/dashboard" });
    },
  });
  const decline = useMutation({
    mutationFn: () => call(`/api/invitations/${encodeURIComponent(id)}/decline`, { method: "POST" }),
    onSuccess: () => navigate({ to: "/" }),
  });
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
  const err = (q.error ?? accept.error ?? decline.error) as (Error & { status?: number }) | null;
  return (
    <AuthCard
      title="You're invited"
      footer={
        <Link to="/dashboard" className="hover:underline">
          Go to the dashboard
        </Link>
      }
    >
      {err ? (
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
