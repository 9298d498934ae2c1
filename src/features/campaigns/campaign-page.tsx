import { showsPhase } from "@core/campaign";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { ExternalLink, Pause, Play, Trash2 } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { HistoryPanel } from "~/components/history-panel";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Progress } from "~/components/ui/progress";
import { CampaignForm } from "~/features/campaigns/campaign-form";
import { CampaignTabs } from "~/features/campaigns/campaign-tabs";
import { useCan } from "~/lib/auth/can";
import {
  errorInfo,
  formatCount,
  formatDate,
  formatMoney,
  formatPercent,
  safeImageSrc,
  titleCase,
} from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

const route = getRouteApi("/_authed/campaigns/$campaignId/");

const ACTIONS: Record<string, { action: "publish" | "complete" | "archive" | "unarchive"; label: string }> = {
  completed: { action: "complete", label: "Complete" },
  archived: { action: "archive", label: "Archive" },
};

export function CampaignPage() {
  const tz = useTimeZone();
  const { campaignId } = route.useParams();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const q = useQuery(trpc.campaigns.byId.queryOptions({ id: campaignId }));
  const org = useQuery(trpc.organization.current.queryOptions());
  const can = useCan();
  const edit = can({ campaign: ["update"] });
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = React.useState(false);
  const [editing, setEditing] = React.useState(false);
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const done = async (msg: string) => {
    toast.success(msg);
    await qc.invalidateQueries();
  };
  const onError = (e: unknown) => toast.error(errorInfo(e).message);
  const toggle = useMutation(
    trpc.campaigns.toggleStatus.mutationOptions({
      onSuccess: (c) => done(c.status === "active" ? "Campaign resumed" : "Campaign paused"),
      onError,
    }),
  );
  const setStatus = useMutation(
    trpc.campaigns.setStatus.mutationOptions({
      // A campaign published ahead of its first day is active but not open yet: say when it opens.
      onSuccess: (c) =>
        done(
          c.status === "active" && c.phase === "scheduled" && c.startAt
            ? `Published: scheduled to open on ${formatDate(c.startAt, tz)}`
            : `Campaign is now ${c.status}`,
        ),
      onError,
    }),
  );
  const update = useMutation(
    trpc.campaigns.update.mutationOptions({
      onSuccess: async () => {
        setEditing(false);
        await done("Campaign saved");
      },
      onError: (e) => setErrors({ ...errorInfo(e).fields, _: errorInfo(e).message }),
    }),
  );
  // Gone for good: leave the page before the list refetches, so nothing asks for the deleted campaign.
  const remove = useMutation(
    trpc.campaigns.delete.mutationOptions({
      onSuccess: async () => {
        toast.success("Campaign deleted");
        await navigate({ to: "/campaigns" });
        qc.removeQueries({ queryKey: trpc.campaigns.byId.queryKey({ id: campaignId }) });
        await qc.invalidateQueries();
      },
    }),
  );
  const c = q.data;
  if (!c) return null;
  // core/campaign.ts campaignDeletable, decided by the server (byId's `deletable`), which refuses anyway.
  const mayDelete = c.deletable && can({ campaign: ["delete"] });
  const money = (v: number) => formatMoney(v, c.currency);
  return (
    <>
      <PageHeader
        title={c.title}
        description={c.shortDescription ?? undefined}
        actions={
          <>
            {edit && (c.status === "active" || c.status === "paused") ? (
              <Button
                variant="outline"
                onClick={() => toggle.mutate({ id: c.id })}
                disabled={toggle.isPending}
              >
                {c.status === "active" ? (
                  <>
                    <Pause className="size-4" /> Pause
                  </>
                ) : (
                  <>
                    <Play className="size-4" /> Resume
                  </>
                )}
              </Button>
            ) : null}
            {edit && c.status === "draft" ? (
              <Button onClick={() => setStatus.mutate({ id: c.id, action: "publish" })}>Publish</Button>
            ) : null}
            {edit && c.status === "archived" ? (
              <Button variant="outline" onClick={() => setStatus.mutate({ id: c.id, action: "unarchive" })}>
                Unarchive
              </Button>
            ) : null}
            {c.allowedTransitions
              .filter((t) => edit && ACTIONS[t])
              .map((t) => (
                <Button
                  key={t}
                  variant="outline"
                  onClick={() => setStatus.mutate({ id: c.id, action: ACTIONS[t]?.action ?? "complete" })}
                >
                  {ACTIONS[t]?.label}
                </Button>
              ))}
            {/* The public address; what visitors cannot see yet (a draft, a private campaign) opens
                there as a preview for the organization's members. */}
            {org.data ? (
              <Button variant="ghost" asChild>
                <a href={`/p/${org.data.slug}/${c.slug}`} target="_blank" rel="noreferrer">
                  <ExternalLink className="size-4" />{" "}
                  {c.status === "draft" || c.visibility === "private" ? "Preview" : "Public page"}
                </a>
              </Button>
            ) : null}
            {mayDelete ? (
              <Button variant="outline" className="text-destructive" onClick={() => setConfirmDelete(true)}>
                <Trash2 className="size-4" /> Delete campaign
              </Button>
            ) : null}
          </>
        }
      />
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        destructive
        title="Delete this campaign?"
        description={`“${c.title}” and its items are removed for good. Nobody has given to it yet; once someone does, a campaign can only be archived.`}
        confirmLabel="Delete campaign"
        onConfirm={() => remove.mutateAsync({ id: c.id })}
      />
      <CampaignTabs campaignId={c.id} />
      {/* One tile a row on a phone: a raised amount of millions does not fit half of 360 px. */}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Card className="gap-0 py-0">
          <CardContent className="p-4">
            <p className="text-muted-foreground text-sm">Status</p>
            <p className="mt-1 flex items-center gap-2">
              <StatusBadge status={c.status} />
              {showsPhase(c.status) ? (
                <span className="text-muted-foreground text-sm">{titleCase(c.phase)}</span>
              ) : null}
            </p>
          </CardContent>
        </Card>
        <Card className="gap-0 py-0">
          <CardContent className="p-4">
            <p className="text-muted-foreground text-sm">Raised</p>
            <p className="font-semibold text-xl tabular-nums">{money(c.raisedMinor)}</p>
          </CardContent>
        </Card>
        <Card className="gap-0 py-0">
          <CardContent className="p-4">
            <p className="text-muted-foreground text-sm">Donations / donors</p>
            <p className="font-semibold text-xl tabular-nums">
              {formatCount(c.donationCount)} / {formatCount(c.donorCount)}
            </p>
            {/* Every gift of the campaign, whatever its status, with the list's filters and export. */}
            {can({ donation: ["view"] }) ? (
              <Link
                to="/donations"
                search={{ campaignId: c.id } as never}
                className="text-primary text-sm hover:underline"
              >
                See the donations
              </Link>
            ) : null}
          </CardContent>
        </Card>
        <Card className="gap-0 py-0">
          <CardContent className="p-4">
            <p className="text-muted-foreground text-sm">Runs</p>
            <p className="font-medium">
              {/* Campaign days are the organization's (`tz`); the end is exclusive: its last day is the one before. */}
              {c.startAt ? formatDate(c.startAt, tz) : "Now"} –{" "}
              {c.endAt ? formatDate(c.endAt - 1, tz) : "open"}
            </p>
          </CardContent>
        </Card>
      </div>
      {c.goalProgress !== null ? (
        <Card>
          <CardContent className="flex flex-col gap-2 p-4">
            <div className="flex justify-between text-sm">
              <span>
                Goal:{" "}
                {c.goalType === "amount" ? money(c.goalAmountMinor ?? 0) : `${c.goalCount} ${c.goalType}`}
              </span>
              <span className="tabular-nums">{formatPercent(c.goalProgress)}</span>
            </div>
            <Progress value={Math.min(100, c.goalProgress * 100)} aria-label="Goal progress" />
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader className="flex flex-row items-center justify-between">
          <CardTitle>Details</CardTitle>
          {edit && !editing ? (
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                setErrors({});
                setEditing(true);
              }}
            >
              Edit
            </Button>
          ) : null}
        </CardHeader>
        <CardContent>
          {editing && org.data ? (
            <CampaignForm
              initial={c as never}
              timeZone={org.data.timeZone}
              submitLabel="Save changes"
              pending={update.isPending}
              errors={errors}
              currencyLocked={c.donationCount > 0}
              onSubmit={(v) => update.mutate({ id: c.id, data: v as never })}
            />
          ) : (
            <div className="flex flex-col gap-4 text-sm">
              {safeImageSrc(c.coverUrl) ? (
                <img
                  src={safeImageSrc(c.coverUrl) ?? undefined}
                  alt={`${c.title} cover`}
                  className="aspect-video w-full max-w-xl rounded-md border object-cover"
                />
              ) : null}
              <p className="whitespace-pre-wrap">{c.description || "No story yet."}</p>
              <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-2 lg:grid-cols-3">
                <Detail label="Currency">{c.currency}</Detail>
                <Detail label="Visibility">{titleCase(c.visibility)}</Detail>
                <Detail label="Donation range">
                  {money(c.minAmountMinor)} – {money(c.maxAmountMinor)}
                </Detail>
                <Detail label="Suggested amounts">
                  {c.suggestedAmounts.length ? c.suggestedAmounts.map(money).join(", ") : "None"}
                </Detail>
                <Detail label="Recurring donations">
                  {c.allowRecurring ? c.recurringFrequencies.map(titleCase).join(", ") : "Not offered"}
                </Detail>
                <Detail label="After the end date">
                  {c.acceptAfterEnd ? "Keeps accepting donations" : "Completes"}
                </Detail>
                <Detail label="When the goal is reached">
                  {c.completeOnGoal ? "Completes" : "Keeps accepting donations"}
                </Detail>
                <Detail label="Web address">/{c.slug}</Detail>
              </dl>
            </div>
          )}
        </CardContent>
      </Card>
      <HistoryPanel entityType="campaign" entityId={c.id} />
    </>
  );
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}
