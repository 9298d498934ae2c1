/**
 * /recurring/{planId} (issue 24): one recurring plan — its schedule and standing, what a member may
 * do to it (pause, resume, cancel, change a manual plan's amount, record a gift that pays it), its
 * gifts and its timeline. Every rule is the server's (worker/plans/service.ts): the page offers
 * only what `allowedActions` and `amountEditable` say, and shows the server's refusal otherwise.
 */

import { donorLabel, paymentMethodLabel } from "@core/labels";
import {
  addMonthsToDay,
  dueOnOrAfter,
  EXPECTING,
  MAX_PAUSE_MONTHS,
  PLAN_INTERVAL_LABELS,
  PLAN_REASON_ACTIONS,
  PLAN_STATUS_LABELS,
  type PlanAction,
  type PlanStatus,
  pauseEndProblem,
} from "@core/plans";
import { amountMinor } from "@core/schemas";
import { addDays, localDay, startOfLocalDay } from "@core/time";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { ArrowLeft, Ban, Pause, Pencil, Play } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { Textarea } from "~/components/ui/textarea";
import type { RouterOutputs } from "~/lib/api-types";
import { useCan } from "~/lib/auth/can";
import { formatCount, formatDate, formatDateTime, formatMoney, titleCase } from "~/lib/format";
import { useMoneyInput } from "~/lib/money-locale";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";
import { cn } from "~/lib/utils";
import { daysLate, lateLabel, PLAN_SOURCE_LABELS, PlanStatusBadge, planAmount } from "./plan-bits";
import { RecordPlanGiftDialog } from "./record-plan-gift-dialog";

const route = getRouteApi("/_authed/recurring/$planId/");

type Plan = RouterOutputs["plans"]["byId"];
type PlanEvent = Plan["timeline"][number];

/** The server's reason limit (worker/plans/router.ts). */
const REASON_MAX = 500;

const ordinal = (n: number) => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${s}`;
};

/** "Monthly on the 15th"; a day past the 28th falls on shorter months' last day (core/plans.ts nextDue). */
function schedule(p: Plan) {
  const day = `${PLAN_INTERVAL_LABELS[p.interval]} on the ${ordinal(p.intervalDay)}`;
  return p.intervalDay > 28 ? `${day} (or the month's last day)` : day;
}

export function PlanPage() {
  const { planId } = route.useParams();
  const trpc = useTRPC();
  const q = useQuery(trpc.plans.byId.queryOptions({ id: planId }));
  const can = useCan();
  const [action, setAction] = React.useState<PlanAction | null>(null);
  const [changingAmount, setChangingAmount] = React.useState(false);
  const p = q.data;
  if (!p) return null;
  const updates = can({ donation: ["update"] });
  const records = can({ donation: ["create"] }) && EXPECTING.includes(p.status);
  const offered = updates ? p.allowedActions : [];
  return (
    <>
      <Link
        to="/recurring"
        className="-mb-3 inline-flex w-fit items-center gap-1 rounded-sm text-muted-foreground text-sm outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ArrowLeft className="size-4" aria-hidden /> Recurring plans
      </Link>
      <PageHeader
        title={
          p.donorId ? (
            <Link to="/donors/$donorId" params={{ donorId: p.donorId }} className="hover:underline">
              {donorLabel(p.donorName)}
            </Link>
          ) : (
            donorLabel(p.donorName)
          )
        }
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-foreground tabular-nums">
              {planAmount(p.amountMinor, p.currency, p.interval)}
            </span>
            <PlanStatusBadge status={p.status} />
          </span>
        }
        actions={
          <>
            {records ? <RecordPlanGiftDialog plan={p} /> : null}
            {updates && p.amountEditable ? (
              <Button variant="outline" onClick={() => setChangingAmount(true)}>
                <Pencil className="size-4" aria-hidden /> Change amount
              </Button>
            ) : null}
            {offered.includes("resume") ? (
              <Button variant="outline" onClick={() => setAction("resume")}>
                <Play className="size-4" aria-hidden /> Resume
              </Button>
            ) : null}
            {offered.includes("pause") ? (
              <Button variant="outline" onClick={() => setAction("pause")}>
                <Pause className="size-4" aria-hidden /> Pause
              </Button>
            ) : null}
            {offered.includes("cancel") ? (
              <Button
                variant="outline"
                className="text-destructive hover:text-destructive"
                onClick={() => setAction("cancel")}
              >
                <Ban className="size-4" aria-hidden /> Cancel plan
              </Button>
            ) : null}
          </>
        }
      />
      <div className="grid gap-4 lg:grid-cols-3">
        <ScheduleCard p={p} />
        <DonorCard p={p} />
      </div>
      <GiftsCard p={p} />
      <PlanTimeline p={p} />
      {updates ? (
        <>
          <StatusDialog p={p} action={action} onClose={() => setAction(null)} refetch={q.refetch} />
          <AmountDialog
            p={p}
            open={changingAmount}
            onClose={() => setChangingAmount(false)}
            refetch={q.refetch}
          />
        </>
      ) : null}
    </>
  );
}

function Facts({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
      {rows.map(([k, v]) => (
        <div key={k} className="min-w-0">
          <dt className="text-muted-foreground">{k}</dt>
          <dd className="font-medium tabular-nums [overflow-wrap:anywhere]">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function ScheduleCard({ p }: { p: Plan }) {
  const tz = useTimeZone();
  const money = (v: number) => formatMoney(v, p.currency);
  // A paused plan keeps its date for when it resumes, but nothing is late meanwhile.
  const late = EXPECTING.includes(p.status) ? daysLate(p.nextExpectedAt) : 0;
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Schedule and giving</CardTitle>
      </CardHeader>
      <CardContent>
        <Facts
          rows={[
            ["Schedule", schedule(p)],
            ["Monthly equivalent", money(p.monthlyMinor)],
            ["Started", formatDate(p.startedAt, tz)],
            [
              "Next expected donation",
              p.nextExpectedAt === null ? (
                "None"
              ) : p.status === "paused" ? (
                p.resumeAt ? (
                  `None while paused; resumes on ${formatDate(p.resumeAt, tz)}`
                ) : (
                  "None while paused"
                )
              ) : (
                <span key="next" className={cn(late > 0 && "text-red-700 dark:text-red-400")}>
                  {formatDate(p.nextExpectedAt, tz)}
                  {late > 0 ? <span className="block font-normal text-xs">{lateLabel(late)}</span> : null}
                </span>
              ),
            ],
            ["Ended", formatDate(p.endedAt, tz)],
            [`${PLAN_STATUS_LABELS[p.status]} since`, formatDate(p.statusChangedAt, tz)],
            ["Donations", formatCount(p.giftCount)],
            ["Total given", money(p.givenMinor)],
            ["Last donation", formatDate(p.lastGiftAt, tz)],
            [
              "Missed donations",
              <span key="missed" className={cn(p.missedCount > 0 && "text-red-700 dark:text-red-400")}>
                {formatCount(p.missedCount)}
              </span>,
            ],
          ]}
        />
      </CardContent>
    </Card>
  );
}

function DonorCard({ p }: { p: Plan }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Donor and payment</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <div className="flex min-w-0 flex-col gap-1">
          {p.donorId ? (
            <Link
              to="/donors/$donorId"
              params={{ donorId: p.donorId }}
              className="font-medium text-primary hover:underline"
            >
              {donorLabel(p.donorName)}
            </Link>
          ) : (
            <span className="text-muted-foreground">{donorLabel(p.donorName)}</span>
          )}
          {p.donorEmail ? <span className="break-all text-muted-foreground">{p.donorEmail}</span> : null}
          {p.campaignId ? (
            <Link
              to="/campaigns/$campaignId"
              params={{ campaignId: p.campaignId }}
              className="text-primary hover:underline"
            >
              {p.campaignTitle}
            </Link>
          ) : (
            <span className="text-muted-foreground">General fund</span>
          )}
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          {(
            [
              ["Source", PLAN_SOURCE_LABELS[p.source] ?? titleCase(p.source)],
              ["Processor", p.gateway ? titleCase(p.gateway) : "—"],
              ["Subscription", p.gatewaySubscriptionId ?? "—"],
              ["Method", p.paymentMethod ? paymentMethodLabel(p.paymentMethod) : "—"],
            ] as const
          ).map(([k, v]) => (
            <React.Fragment key={k}>
              <dt className="text-muted-foreground">{k}</dt>
              <dd className="min-w-0 break-all">{v}</dd>
            </React.Fragment>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

function GiftsCard({ p }: { p: Plan }) {
  const tz = useTimeZone();
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Donations</CardTitle>
        {p.gifts.length >= 100 ? (
          <CardDescription>The latest 100 donations, newest first.</CardDescription>
        ) : null}
      </CardHeader>
      <CardContent>
        {p.gifts.length ? (
          <Table aria-label="Donations of this plan">
            <TableHeader>
              <TableRow>
                <TableHead>Donation</TableHead>
                {/* A phone shows the date under the number: four columns do not fit 360 px. */}
                <TableHead className="hidden sm:table-cell">Date</TableHead>
                <TableHead className="text-right">Amount</TableHead>
                <TableHead>Status</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {p.gifts.map((g) => (
                <TableRow key={g.id} className={cn(g.trashed && "text-muted-foreground")}>
                  <TableCell>
                    <Link
                      to="/donations/$donationId"
                      params={{ donationId: g.id }}
                      className="font-medium text-primary hover:underline"
                    >
                      #{g.number}
                    </Link>
                    <span className="block text-muted-foreground text-xs sm:hidden">
                      {formatDate(g.donatedAt, tz)}
                    </span>
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">{formatDate(g.donatedAt, tz)}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatMoney(g.amountMinor, g.currency)}
                    {g.refundedMinor > 0 ? (
                      <span className="block text-muted-foreground text-xs">
                        {formatMoney(g.refundedMinor, g.currency)} refunded
                      </span>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <span className="flex flex-wrap items-center gap-1">
                      <StatusBadge status={g.status} />
                      {g.mode === "test" ? <Badge variant="outline">Test</Badge> : null}
                      {g.trashed ? <Badge variant="outline">In trash</Badge> : null}
                    </span>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <p className="text-muted-foreground text-sm">No donations yet.</p>
        )}
      </CardContent>
    </Card>
  );
}

/** What an event did, in a person's words. */
function eventLabel(e: PlanEvent) {
  if (e.kind === "created") return "Started";
  if (e.kind === "amount") return "Amount changed";
  switch (e.toStatus) {
    case "paused":
      return "Paused";
    case "active":
      return e.fromStatus === "paused" ? "Resumed" : "Active again";
    case "cancelled":
      return "Cancelled";
    case "past_due":
      return "Became past due";
    case "lapsed":
      return "Lapsed";
    case "completed":
      return "Completed";
    default:
      return "Status changed";
  }
}

/**
 * Who made a change. No actor means no person: the processor's webhook (its reason names the
 * event; its plans are created and paid by it) or the watch that marks late plans (cron.ts).
 */
function actorLabel(e: PlanEvent, p: Plan) {
  if (e.actor) return e.actor;
  if (e.reason?.startsWith("webhook event")) return "Processor";
  if (e.toStatus === "past_due" || e.toStatus === "lapsed") return "System";
  return p.source === "webhook" ? "Processor" : "System";
}

const statusLabel = (s: string | null) => (s ? (PLAN_STATUS_LABELS[s as PlanStatus] ?? titleCase(s)) : null);

/** The plan's changes, oldest first, as the donation page's timeline shows a gift's. */
function PlanTimeline({ p }: { p: Plan }) {
  const tz = useTimeZone();
  const money = (v: number) => formatMoney(v, p.currency);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Timeline</CardTitle>
      </CardHeader>
      <CardContent>
        {p.timeline.length ? (
          <ol className="relative flex flex-col gap-4 border-l pl-4">
            {p.timeline.map((e) => {
              const from = statusLabel(e.fromStatus);
              const to = statusLabel(e.toStatus);
              return (
                <li key={e.id} className="flex flex-col gap-1 text-sm">
                  <span
                    aria-hidden
                    className="-left-[5px] absolute mt-1.5 size-2.5 rounded-full border-2 border-background bg-primary"
                  />
                  <span className="flex flex-wrap items-center gap-x-2">
                    <span className="font-medium">{eventLabel(e)}</span>
                    {e.kind === "status" && from && to ? (
                      <span className="text-muted-foreground">
                        {from} → {to}
                      </span>
                    ) : null}
                  </span>
                  {e.monthlyBefore !== e.monthlyAfter ? (
                    <span className="text-muted-foreground tabular-nums">
                      Monthly recurring revenue {money(e.monthlyBefore)} → {money(e.monthlyAfter)}
                    </span>
                  ) : null}
                  <span className="text-muted-foreground text-xs">
                    {formatDateTime(e.at, tz)} · {actorLabel(e, p)}
                  </span>
                  {e.reason ? <span className="text-muted-foreground">“{e.reason}”</span> : null}
                </li>
              );
            })}
          </ol>
        ) : (
          <p className="text-muted-foreground text-sm">No changes recorded.</p>
        )}
      </CardContent>
    </Card>
  );
}

/** A conflict means the plan moved since this page read it: read it again while the dialog says so. */
function onConflict(refetch: () => unknown) {
  return (e: unknown) => {
    if ((e as { data?: { code?: string } } | null)?.data?.code === "CONFLICT") void refetch();
    throw e;
  };
}

const COPY: Record<PlanAction, { title: string; confirm: string; done: string }> = {
  pause: { title: "Pause this plan?", confirm: "Pause plan", done: "Plan paused" },
  resume: { title: "Resume this plan?", confirm: "Resume plan", done: "Plan resumed" },
  cancel: { title: "Cancel this plan?", confirm: "Cancel plan", done: "Plan cancelled" },
};

function StatusDialog({
  p,
  action,
  onClose,
  refetch,
}: {
  p: Plan;
  action: PlanAction | null;
  onClose: () => void;
  refetch: () => unknown;
}) {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const setStatus = useMutation(trpc.plans.setStatus.mutationOptions());
  const [reason, setReason] = React.useState("");
  // How long a pause lasts: until resumed by hand (""), N months, or until a day ("date").
  const [length, setLength] = React.useState("");
  const [until, setUntil] = React.useState("");
  // The last action stays on screen while the dialog animates out.
  const [shown, setShown] = React.useState<PlanAction>(action ?? "pause");
  if (action && action !== shown) setShown(action);
  React.useEffect(() => {
    if (action) {
      setReason("");
      setLength("");
      setUntil("");
    }
  }, [action]);
  const today = localDay(Date.now(), tz);
  const resumeOn =
    shown !== "pause" || !length
      ? undefined
      : length === "date"
        ? until || undefined
        : addMonthsToDay(today, Number(length));
  const pauseProblem = resumeOn
    ? pauseEndProblem(resumeOn, today)
    : length === "date"
      ? "Choose the day"
      : null;
  const needsReason = PLAN_REASON_ACTIONS.includes(shown);
  const copy = COPY[shown];
  // Where a resumed plan picks up: the server's own rule (service.ts changePlanStatus).
  const resumesOn =
    shown === "resume"
      ? dueOnOrAfter(
          p.nextExpectedAt ?? p.startedAt,
          p.interval,
          p.intervalDay,
          tz,
          startOfLocalDay(localDay(Date.now(), tz), tz),
        )
      : null;
  const description =
    shown === "pause"
      ? "No donation is expected while it is paused, and it leaves recurring revenue until it resumes."
      : shown === "resume"
        ? `${p.status === "past_due" ? "" : "It counts in recurring revenue again. "}Its next donation is expected on ${formatDate(resumesOn, tz)}, and missed donations count from none again.`
        : "It expects no more donations and leaves recurring revenue for good: a cancelled plan cannot be resumed.";
  const trimmed = reason.trim();
  return (
    <ConfirmDialog
      open={action !== null}
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title={copy.title}
      description={description}
      confirmLabel={copy.confirm}
      cancelLabel={shown === "cancel" ? "Keep plan" : undefined}
      destructive={shown === "cancel"}
      canConfirm={!needsReason || (trimmed.length > 0 && trimmed.length <= REASON_MAX && !pauseProblem)}
      onConfirm={async () => {
        await setStatus
          .mutateAsync({ id: p.id, action: shown, reason: trimmed || undefined, resumeOn })
          .catch(onConflict(refetch));
        toast.success(
          resumeOn ? `Plan paused until ${formatDate(startOfLocalDay(resumeOn, tz), tz)}` : copy.done,
        );
        await qc.invalidateQueries();
      }}
    >
      {shown === "pause" ? (
        <Field
          label="For how long"
          description={
            resumeOn && !pauseProblem
              ? `It resumes by itself on ${formatDate(startOfLocalDay(resumeOn, tz), tz)}, expecting its next due donation.`
              : "Until someone resumes it."
          }
        >
          <NativeSelect value={length} onChange={(e) => setLength(e.target.value)} className="w-full px-3">
            <option value="">Until resumed by hand</option>
            {[1, 2, 3, 6, 12].map((n) => (
              <option key={n} value={n}>
                {n} month{n === 1 ? "" : "s"}
              </option>
            ))}
            <option value="date">Until a day…</option>
          </NativeSelect>
        </Field>
      ) : null}
      {shown === "pause" && length === "date" ? (
        <Field label="Resumes on" required error={until ? (pauseProblem ?? undefined) : undefined}>
          <Input
            type="date"
            value={until}
            min={addDays(today, 1)}
            max={addMonthsToDay(today, MAX_PAUSE_MONTHS)}
            onChange={(e) => setUntil(e.target.value)}
          />
        </Field>
      ) : null}
      {needsReason ? (
        <Field label="Reason" required description="Kept in the plan's timeline and the audit trail.">
          <Textarea
            value={reason}
            rows={3}
            maxLength={REASON_MAX}
            onChange={(e) => setReason(e.target.value)}
          />
        </Field>
      ) : null}
    </ConfirmDialog>
  );
}

/** A manual plan's amount, in major units as people type it. */
function AmountDialog({
  p,
  open,
  onClose,
  refetch,
}: {
  p: Plan;
  open: boolean;
  onClose: () => void;
  refetch: () => unknown;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const change = useMutation(trpc.plans.changeAmount.mutationOptions());
  const money = useMoneyInput();
  const [amount, setAmount] = React.useState("");
  const [reason, setReason] = React.useState("");
  React.useEffect(() => {
    if (open) {
      setAmount(money.show(p.amountMinor, p.currency));
      setReason("");
    }
  }, [open, p.amountMinor, p.currency, money.show]);
  let minor: number | null = null;
  let problem: string | undefined;
  const read = money.read(amount, p.currency);
  if (read.ok) {
    const parsed = amountMinor.safeParse(read.minor);
    if (parsed.success) minor = parsed.data;
    else problem = parsed.error.issues[0]?.message;
  } else problem = read.message;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title="Change the amount"
      description="From the next donation on; donations already received keep their amounts."
      confirmLabel="Change amount"
      canConfirm={minor !== null && minor !== p.amountMinor && reason.trim().length <= REASON_MAX}
      onConfirm={async () => {
        if (minor === null) return;
        await change
          .mutateAsync({ id: p.id, amountMinor: minor, reason: reason.trim() || undefined })
          .catch(onConflict(refetch));
        toast.success(`Now ${planAmount(minor, p.currency, p.interval)}`);
        await qc.invalidateQueries();
      }}
    >
      <Field
        label={`Amount per ${p.interval} (${p.currency})`}
        required
        error={amount.trim() ? problem : undefined}
      >
        <Input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </Field>
      <Field label="Reason" description="Optional; kept in the plan's timeline.">
        <Textarea
          value={reason}
          rows={2}
          maxLength={REASON_MAX}
          onChange={(e) => setReason(e.target.value)}
        />
      </Field>
    </ConfirmDialog>
  );
}
