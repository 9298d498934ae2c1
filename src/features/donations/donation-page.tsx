import { ANONYMOUS_DONOR, donorLabel, paymentMethodLabel } from "@core/labels";
import { donationStatuses, needsReason } from "@core/status";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { Pencil, Trash2, Undo2 } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { HistoryPanel } from "~/components/history-panel";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { StatusTimeline } from "~/features/donations/status-timeline";
import { DonationReceipts } from "~/features/receipts/donation-receipts";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatDateTime, formatMoney, titleCase } from "~/lib/format";
import { useMoneyInput } from "~/lib/money-locale";
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
  /** "Move to trash" asks first (issue 53, H4): a receipted gift's receipt is voided. */
  const [trashing, setTrashing] = React.useState(false);
  const moneyInput = useMoneyInput();
  const refresh = () => qc.invalidateQueries();
  // What the gift's receipt is, and whether the donor can be e-mailed: the trash and refund
  // dialogs say what they do to it (the receipts card reads the same query).
  const receipts = useQuery(trpc.receipts.forDonation.queryOptions({ donationId }));
  const settings = useQuery(trpc.receipts.settings.queryOptions());
  const issued = receipts.data?.receipts.find((r) => r.id === receipts.data?.issuedId) ?? null;
  const canMail = !!issued && !receipts.data?.noSend && can({ receipt: ["send"] });
  /** The refund dialog's "E-mail the donor": the organization's "send automatically" until changed. */
  const [notify, setNotify] = React.useState<boolean | null>(null);
  const notifyDonor = notify ?? settings.data?.autoSend ?? false;
  const status = useMutation(
    trpc.donations.updateStatus.mutationOptions({
      onSuccess: async (d, input) => {
        const mailed = input.notifyDonor && canMail ? " The donor is e-mailed what changed." : "";
        toast.success(`Donation is now ${titleCase(d.status).toLowerCase()}.${mailed}`);
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
        await refresh();
        // The receipt the trash voided is issued again under a new number, and nothing is mailed.
        const after = await qc.fetchQuery(trpc.receipts.forDonation.queryOptions({ donationId }));
        const again = after.receipts.find((r) => r.id === after.issuedId);
        toast.success(
          again
            ? `Restored. Receipt ${again.number} is issued${again.replaces ? ` in place of ${again.replaces}` : ""}; the donor was not e-mailed (Send receipt sends it).`
            : "Restored.",
          { duration: 10_000 },
        );
      },
      onError: (e) => toast.error(errorInfo(e).message),
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
                <Button variant="outline" onClick={() => setTrashing(true)}>
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
              {can({ donation: ["update"] }) && d.status === "partially_refunded" && !d.trashed ? (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => {
                    setErr({});
                    setTarget("partially_refunded");
                  }}
                >
                  Refund more…
                </Button>
              ) : null}
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
                // A check number or transfer reference (offline gifts); the processor's id (online ones).
                d.paymentReference
                  ? ["Reference", d.paymentReference]
                  : ["Gateway id", d.gatewayTransactionId ?? "—"],
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
      <ConfirmDialog
        open={trashing}
        onOpenChange={setTrashing}
        title={`Move donation #${d.number} to the trash?`}
        description={
          issued
            ? `Its receipt ${issued.number} will be voided: the donor's copy is no longer valid. Restoring the donation issues a new receipt without e-mailing the donor.`
            : "It stops counting in totals and reports until restored."
        }
        confirmLabel="Move to trash"
        destructive
        onConfirm={() => trash.mutateAsync({ id: d.id })}
      />
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
              {correcting
                ? "Correct the status"
                : target === "partially_refunded" && d.status === "partially_refunded"
                  ? "Refund more"
                  : `Mark ${titleCase(target ?? "").toLowerCase()}`}
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
                const read = moneyInput.read(String(f.get("amount") ?? ""), d.currency);
                if (!read.ok) {
                  setErr({ refundAmountMinor: read.message });
                  return;
                }
                refundAmountMinor = read.minor;
              }
              status.mutate({
                id: d.id,
                status: next as never,
                reason: String(f.get("reason") ?? ""),
                refundAmountMinor,
                correction: correcting,
                notifyDonor: canMail && !correcting ? notifyDonor : undefined,
              });
            }}
          >
            {correcting ? (
              <Field label="New status" required error={err.status}>
                <NativeSelect
                  name="status"
                  className="w-full px-3"
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
                </NativeSelect>
              </Field>
            ) : null}
            {target === "partially_refunded" ? (
              <Field
                label={correcting ? `Total refunded (${d.currency})` : `Amount refunded now (${d.currency})`}
                required
                error={err.refundAmountMinor}
                description={
                  !correcting && d.refundedMinor > 0
                    ? `${money(d.refundedMinor)} of ${money(d.amountMinor)} refunded so far; ${money(d.amountMinor - d.refundedMinor)} left.`
                    : undefined
                }
              >
                <Input name="amount" inputMode="decimal" />
              </Field>
            ) : null}
            <Field
              label="Reason (internal note)"
              required
              error={err.reason}
              description="Kept in the donation's history for your team: never shown to the donor or printed on a receipt."
            >
              <Input name="reason" />
            </Field>
            {canMail && !correcting && (target === "refunded" || target === "partially_refunded") ? (
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-1"
                  checked={notifyDonor}
                  onChange={(e) => setNotify(e.target.checked)}
                />
                <span>
                  {target === "refunded"
                    ? `E-mail the donor that the donation was refunded and receipt ${issued?.number} is void`
                    : `E-mail the donor the refund and the corrected receipt that replaces ${issued?.number}`}
                  <span className="block text-muted-foreground">
                    {settings.data?.autoSend
                      ? "Ticked because receipts go out automatically."
                      : "Receipts are not sent automatically: tick to send this one."}
                  </span>
                </span>
              </label>
            ) : null}
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
