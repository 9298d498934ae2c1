import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { BadgeCheck } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { requireAdmin } from "~/lib/auth/guards";
import { errorInfo, formatDate } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

export const Route = createFileRoute("/_authed/organization-badges/")({
  beforeLoad: ({ context }) => requireAdmin(context),
  head: () => ({ meta: [{ title: "Organization badges · Almoner" }] }),
  component: BadgesPage,
});

const sel = "h-9 w-full rounded-md border border-input bg-transparent px-2 text-sm";

function BadgesPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const list = useQuery(trpc.badges.list.queryOptions());
  const orgs = useQuery(trpc.organization.all.queryOptions());
  const [error, setError] = React.useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.badges.list.queryKey() });
  const grant = useMutation(
    trpc.badges.grant.mutationOptions({
      onSuccess: async () => {
        toast.success("Badge granted");
        setError(null);
        await refresh();
      },
      onError: (e) => setError(errorInfo(e).message),
    }),
  );
  const revoke = useMutation(
    trpc.badges.revoke.mutationOptions({
      onSuccess: async () => {
        toast.success("Badge revoked");
        await refresh();
      },
    }),
  );
  return (
    <>
      <PageHeader
        title="Organization badges"
        description="Trust signals shown on organization and campaign pages."
      />
      <Card>
        <CardHeader>
          <CardTitle>Grant a badge</CardTitle>
        </CardHeader>
        <CardContent>
          <form
            className="grid gap-3 sm:grid-cols-4 sm:items-end"
            onSubmit={(e) => {
              e.preventDefault();
              const f = new FormData(e.currentTarget);
              const exp = String(f.get("expiresAt") ?? "");
              grant.mutate({
                organizationId: String(f.get("organizationId")),
                badge: String(f.get("badge")) as never,
                reason: String(f.get("reason") ?? "") || undefined,
                expiresAt: exp ? Date.parse(`${exp}T23:59:59`) : null,
              });
            }}
          >
            <Field label="Organization">
              <select name="organizationId" className={sel}>
                {orgs.data?.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Badge">
              <select name="badge" className={sel}>
                <option value="verified_organization">Verified organization</option>
                <option value="registered_charity">Registered charity</option>
                <option value="transparent">Transparent</option>
              </select>
            </Field>
            <Field label="Expires (optional)">
              <Input name="expiresAt" type="date" />
            </Field>
            <Field label="Reason">
              <Input name="reason" />
            </Field>
            {error ? (
              <p role="alert" className="text-destructive text-sm sm:col-span-4">
                {error}
              </p>
            ) : null}
            <div>
              <Button type="submit" disabled={grant.isPending}>
                Grant
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Current badges</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col divide-y">
          {list.data?.map((b) => (
            <div key={b.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="flex items-center gap-2">
                <BadgeCheck className="size-4 text-primary" /> <strong>{b.name}</strong> ·{" "}
                {b.organizationName}
              </span>
              <span className="flex items-center gap-3 text-muted-foreground">
                {b.expiresAt ? `${b.expired ? "expired" : "until"} ${formatDate(b.expiresAt)}` : "no expiry"}{" "}
                · by {b.grantedBy ?? "system"}
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() =>
                    revoke.mutate({ id: b.id, reason: window.prompt("Reason for revoking?") ?? undefined })
                  }
                >
                  Revoke
                </Button>
              </span>
            </div>
          ))}
          {list.data?.length === 0 ? (
            <p className="py-4 text-muted-foreground text-sm">No badges granted yet.</p>
          ) : null}
        </CardContent>
      </Card>
    </>
  );
}
