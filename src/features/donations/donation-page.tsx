import { ANONYMOUS_DONOR, donorLabel, paymentMethodLabel } from "@core/labels";
import { donationStatuses, needsReason } from "@core/status";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { Pencil, Trash2, Undo2 } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { HistoryPanel } from "~/components/history-panel";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { StatusTimeline } from "~/features/donations/status-timeline";
import { DonationReceipts } from "~/features/receipts/donation-receipts";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatDateTime, formatMoney, titleCase, toMinor } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

const route = getRouteApi("/_authed/donations/$donationId/");

export function DonationPage() {
  const tz = useTimeZone();
  const { donationId } = route.useParams();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const q = useQuery(trpc.donations.byId.queryOptions({ id: donationId }));
  const [target, setTarget] = React.useState<string | null>(null);
  /** Platform admins' correction: any status, with a reason (domain.md §2.5). */
  const [correcting, setCorrecting] = React.useState(false);
  const can = useCan();
  const admin = can.platformAdmin;
  const [err, setErr] = React.useState<Record<string, string>>({});
  const refresh = () => qc.invalidateQueries();
  const status = useMutation(
    trpc.donations.updateStatus.mutationOptions({
      onSuccess: async (d) => {
        toast.success(`Donation is now ${titleCase(d.status).toLowerCase()}`);
        setTarget(null);
        setCorrecting(false);
        await refresh();
      },
      onError: (e) => setErr({ ...errorInfo(e).fields, _: errorInfo(e).message }),
    }),
  );
  const trash = useMutation(
    trpc.donations.delete.mutationOptions({
      onSuccess: async () => {
        toast.success("Moved to the trash");
        await refresh();
      },
    }),
  );
  const restore = useMutation(
    trpc.donations.restore.mutationOptions({
      onSuccess: async () => {
        toast.success("Restored");
        await refresh();
      },
    }),
  );
  const d = q.data;
  if (!d) return null;
  const money = (v: number) => formatMoney(v, d.currency);
  return (
    <>
      <PageHeader
        title={`Donation #${d.number}`}
        description={
          d.trashed
            ? "In the trash: not counted anywhere until restored."
            : `${money(d.amountMinor)} from ${donorLabel(d.donorName)}`
        }
        actions={
          d.trashed ? (
            can({ donation: ["delete"] }) ? (
              <Button variant="outline" onClick={() => restore.mutate({ id: d.id })}>
                <Undo2 className="size-4" /> Restore
              </Button>
            ) : null
          ) : (
            <>
              {can({ donation: ["update"] }) ? (
                <Button variant="outline" asChild>
                  <Link to="/donations/$donationId/edit" params={{ donationId: d.id }}>
                    <Pencil className="size-4" /> Edit
                  </Link>
                </Button>
              ) : null}
              {can({ donation: ["delete"] }) ? (
                <Button variant="outline" onClick={() => trash.mutate({ id: d.id })}>
                  <Trash2 className="size-4" /> Move to trash
                </Button>
              ) : null}
            </>
          )
        }
      />
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              Status <StatusBadge status={d.status} />
            </CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <div className="flex flex-wrap gap-2">
              {!can({ donation: ["update"] }) ? (
                <p className="text-muted-foreground text-sm">
                  Your role views donations without changing them.
                </p>
              ) : d.allowedTransitions.length ? (
                d.allowedTransitions.map((t) => (
                  <Button
                    key={t}
                    size="sm"
                    variant="outline"
                    onClick={() => {
                      if (!needsReason(t)) return status.mutate({ id: d.id, status: t as never });
                      setErr({});
                      setTarget(t);
                    }}
                  >
                    Mark {titleCase(t).toLowerCase()}
                  </Button>
                ))
              ) : (
                <p className="text-muted-foreground text-sm">No further status changes are possible.</p>
              )}
              {admin && !d.trashed ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    setErr({});
                    setCorrecting(true);
                    setTarget(d.status === "completed" ? "refunded" : "completed");
                  }}
                >
                  Correct status…
                </Button>
              ) : null}
            </div>
            <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
              {[
                ["Amount", money(d.amountMinor)],
                ["Refunded", money(d.refundedMinor)],
                ["Net", money(d.netMinor)],
                ["Processing fee", money(d.processingFeeMinor)],
                ["Method", paymentMethodLabel(d.paymentMethod)],
                ["Frequency", titleCase(d.frequency)],
                ["Source", titleCase(d.source)],
                ["Mode", titleCase(d.mode)],
                ["Received", formatDateTime(d.donatedAt, tz)],
                ["Anonymous", d.anonymous ? "Yes" : "No"],
                ["Gateway id", d.gatewayTransactionId ?? "—"],
              ].map(([k, v]) => (
                <div key={k}>
                  <dt className="text-muted-foreground">{k}</dt>
                  <dd className="font-medium tabular-nums">{v}</dd>
                </div>
              ))}
            </dl>
            {d.message ? (
              <blockquote className="border-l-2 pl-3 text-sm italic">“{d.message}”</blockquote>
            ) : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Donor and campaign</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-2 text-sm">
            {d.donorId ? (
              <Link
                to="/donors/$donorId"
                params={{ donorId: d.donorId }}
                className="font-medium text-primary hover:underline"
              >
                {donorLabel(d.donorName)}
              </Link>
            ) : (
              <span className="text-muted-foreground">{ANONYMOUS_DONOR}</span>
            )}
            {d.donorEmail ? <span className="text-muted-foreground">{d.donorEmail}</span> : null}
            {d.campaignId ? (
              <Link
                to="/campaigns/$campaignId"
                params={{ campaignId: d.campaignId }}
                className="text-primary hover:underline"
              >
                {d.campaignTitle}
              </Link>
            ) : (
              <span className="text-muted-foreground">General fund</span>
            )}
            {d.planId ? (
              <Link
                to="/recurring/$planId"
                params={{ planId: d.planId }}
                className="inline-flex items-center gap-1 text-primary hover:underline"
              >
                Part of a recurring plan
              </Link>
            ) : null}
          </CardContent>
        </Card>
      </div>
      <DonationReceipts donationId={d.id} />
      <StatusTimeline entries={d.timeline} currency={d.currency} />
      <HistoryPanel entityType="donation" entityId={d.id} />
      <Dialog
        open={!!target}
        onOpenChange={(o) => {
          if (!o) {
            setTarget(null);
            setCorrecting(false);
          }
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>
              {correcting ? "Correct the status" : `Mark ${titleCase(target ?? "").toLowerCase()}`}
            </DialogTitle>
          </DialogHeader>
          <form
            id="status-form"
            className="flex flex-col gap-3"
            onSubmit={(e) => {
              e.preventDefault();
              const f = new FormData(e.currentTarget);
              let refundAmountMinor: number | undefined;
              const next = correcting ? String(f.get("status") ?? target) : target;
              if (next === "partially_refunded") {
                try {
                  refundAmountMinor = toMinor(String(f.get("amount") ?? ""), d.currency);
                } catch {
                  setErr({ refundAmountMinor: "Enter an amount like 10.00" });
                  return;
                }
              }
              status.mutate({
                id: d.id,
                status: next as never,
                reason: String(f.get("reason") ?? ""),
                refundAmountMinor,
                correction: correcting,
              });
            }}
          >
            {correcting ? (
              <Field label="New status" required error={err.status}>
                <select
                  name="status"
                  className="h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm"
                  value={target ?? ""}
                  onChange={(e) => setTarget(e.target.value)}
                >
                  {donationStatuses
                    .filter((x) => x !== d.status)
                    .map((x) => (
                      <option key={x} value={x}>
                        {titleCase(x)}
                      </option>
                    ))}
                </select>
              </Field>
            ) : null}
            {target === "partially_refunded" ? (
              <Field
                label={correcting ? `Total refunded (${d.currency})` : `Amount refunded now (${d.currency})`}
                required
                error={err.refundAmountMinor}
              >
                <Input name="amount" inputMode="decimal" />
              </Field>
            ) : null}
            <Field label="Reason" required error={err.reason}>
              <Input name="reason" />
            </Field>
            {err._ && !err.reason && !err.refundAmountMinor && !err.status ? (
              <p role="alert" className="text-destructive text-sm">
                {err._}
              </p>
            ) : null}
          </form>
          <DialogFooter>
            <Button variant="outline" onClick={() => setTarget(null)}>
              Cancel
            </Button>
            <Button type="submit" form="status-form" disabled={status.isPending}>
              Confirm
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
