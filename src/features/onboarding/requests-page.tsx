/**
 * /organization-requests (platform admins, decision 045): the requests for new organizations sent
 * under organizations.creation "approval", oldest pending first; approve (the organization is
 * created, the person its owner) or decline with a reason the person is mailed. Both audited.
 */
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Inbox } from "lucide-react";
import { toast } from "sonner";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { PageHeader } from "~/components/layout/page-header";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import type { RouterOutputs } from "~/lib/api-types";
import { formatDate } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";
import { countryName, monthName } from "./new-organization-form";

type Queued = RouterOutputs["onboarding"]["requests"][number];

export function RequestsPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { data } = useSuspenseQuery(trpc.onboarding.requests.queryOptions());
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.onboarding.requests.queryKey() });
  const approve = useMutation(trpc.onboarding.approve.mutationOptions());
  const decline = useMutation(trpc.onboarding.decline.mutationOptions());
  const pending = data.filter((r) => r.status === "pending");
  const decided = data.filter((r) => r.status !== "pending");
  return (
    <>
      <PageHeader
        title="Organization requests"
        description="New organizations people asked for. Approving creates it with them as its owner; a decline's reason is mailed to them."
      />
      <section aria-labelledby="pending-requests" className="flex flex-col gap-4">
        <h2 id="pending-requests" className="font-semibold text-lg">
          Waiting for a decision ({pending.length})
        </h2>
        {pending.length === 0 ? (
          <Card>
            <CardContent className="flex items-center gap-3 py-6 text-muted-foreground text-sm">
              <Inbox className="size-5" aria-hidden="true" />
              No request is waiting.
            </CardContent>
          </Card>
        ) : (
          pending.map((r) => (
            <RequestCard key={r.id} r={r}>
              <div className="flex flex-wrap gap-2">
                <ConfirmButton
                  variant="default"
                  title={`Approve ${r.name}?`}
                  description={`The organization is created now, with ${r.requester.name} (${r.requester.email}) as its owner, who is mailed.`}
                  confirmLabel="Approve"
                  onConfirm={async () => {
                    await approve.mutateAsync({ id: r.id });
                    toast.success(`${r.name} is created`);
                    await refresh();
                  }}
                >
                  Approve
                </ConfirmButton>
                <ConfirmButton
                  title={`Decline ${r.name}?`}
                  description={`${r.requester.name} is mailed your reason and may send a new request.`}
                  confirmLabel="Decline"
                  destructive
                  reasonLabel="Reason (mailed to them)"
                  onConfirm={async (reason) => {
                    await decline.mutateAsync({ id: r.id, reason });
                    toast.success("Request declined");
                    await refresh();
                  }}
                >
                  Decline
                </ConfirmButton>
              </div>
            </RequestCard>
          ))
        )}
      </section>
      {decided.length ? (
        <section aria-labelledby="decided-requests" className="flex flex-col gap-4">
          <h2 id="decided-requests" className="font-semibold text-lg">
            Decided
          </h2>
          {decided.map((r) => (
            <RequestCard key={r.id} r={r} />
          ))}
        </section>
      ) : null}
    </>
  );
}

function RequestCard({ r, children }: { r: Queued; children?: React.ReactNode }) {
  const tz = useTimeZone();
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <h3 data-slot="card-title" className="font-semibold leading-none">
            {r.name}
          </h3>
          {r.status === "pending" ? null : (
            <Badge variant={r.status === "approved" ? "default" : "secondary"} className="capitalize">
              {r.status}
            </Badge>
          )}
        </div>
        <CardDescription>
          <Link
            to="/users/$userId"
            params={{ userId: r.requester.id }}
            className="underline-offset-4 hover:underline"
          >
            {r.requester.name}
          </Link>{" "}
          · <span className="break-all">{r.requester.email}</span> · asked {formatDate(r.createdAt, tz)}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr_auto_1fr]">
          <dt className="text-muted-foreground">Country</dt>
          <dd>{countryName(r.country)}</dd>
          <dt className="text-muted-foreground">Currency</dt>
          <dd>{r.defaultCurrency}</dd>
          <dt className="text-muted-foreground">Time zone</dt>
          <dd className="break-all">{r.timeZone}</dd>
          <dt className="text-muted-foreground">Fiscal year</dt>
          <dd>from {monthName(r.fiscalYearStartMonth)}</dd>
        </dl>
        {r.status !== "pending" ? (
          <p className="text-muted-foreground">
            {r.status === "approved" ? "Approved" : "Declined"} by {r.decidedBy ?? "a platform admin"} on{" "}
            {formatDate(r.decidedAt, tz)}
            {r.reason ? `: ${r.reason}` : "."}
          </p>
        ) : null}
        {children}
      </CardContent>
    </Card>
  );
}
