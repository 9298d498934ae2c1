import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { ExternalLink, Pause, Play } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { HistoryPanel } from "~/components/history-panel";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Progress } from "~/components/ui/progress";
import { CampaignForm } from "~/features/campaigns/campaign-form";
import { CampaignTabs } from "~/features/campaigns/campaign-tabs";
import { errorInfo, formatDate, formatMoney, formatPercent, titleCase } from "~/lib/format";
import { or404 } from "~/lib/loaders";
import { useTRPC } from "~/lib/trpc";

export const Route = createFileRoute("/_authed/campaigns/$campaignId/")({
  loader: ({ context, params }) =>
    or404(
      context.queryClient.ensureQueryData(
        context.trpc.campaigns.byId.queryOptions({ id: params.campaignId }),
      ),
    ),
  head: () => ({ meta: [{ title: "Campaign · Almoner" }] }),
  component: CampaignPage,
});

const ACTIONS: Record<string, { action: "publish" | "complete" | "archive" | "unarchive"; label: string }> = {
  completed: { action: "complete", label: "Complete" },
  archived: { action: "archive", label: "Archive" },
};

function CampaignPage() {
  const { campaignId } = Route.useParams();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const q = useQuery(trpc.campaigns.byId.queryOptions({ id: campaignId }));
  const org = useQuery(trpc.organization.current.queryOptions());
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
      onSuccess: (c) => done(`Campaign is now ${c.status}`),
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
  const c = q.data;
  if (!c) return null;
  const money = (v: number) => formatMoney(v, c.currency);
  return (
    <>
      <PageHeader
        title={c.title}
        description={c.shortDescription ?? undefined}
        actions={
          <>
            {c.status === "active" || c.status === "paused" ? (
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
            {c.status === "draft" ? (
              <Button onClick={() => setStatus.mutate({ id: c.id, action: "publish" })}>Publish</Button>
            ) : null}
            {c.status === "archived" ? (
              <Button variant="outline" onClick={() => setStatus.mutate({ id: c.id, action: "unarchive" })}>
                Unarchive
              </Button>
            ) : null}
            {c.allowedTransitions
              .filter((t) => ACTIONS[t])
              .map((t) => (
                <Button
                  key={t}
                  variant="outline"
                  onClick={() => setStatus.mutate({ id: c.id, action: ACTIONS[t]?.action ?? "complete" })}
                >
                  {ACTIONS[t]?.label}
                </Button>
              ))}
            {org.data && c.status !== "draft" && c.visibility !== "private" ? (
              <Button variant="ghost" asChild>
                <a href={`/p/${org.data.slug}/${c.slug}`} target="_blank" rel="noreferrer">
                  <ExternalLink className="size-4" /> Public page
                </a>
              </Button>
            ) : null}
          </>
        }
      />
      <CampaignTabs campaignId={c.id} />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Card>
          <CardContent className="p-4">
            <p className="text-muted-foreground text-sm">Status</p>
            <p className="mt-1 flex items-center gap-2">
              <StatusBadge status={c.status} />
              <span className="text-muted-foreground text-sm">{titleCase(c.phase)}</span>
            </p>
          </CardContent>
        </Card>
        <Card>
          <CardContent className="p-4">
            <p className="text-muted-foreground text-sm">Raised</p>
            <p className="font-semibold text-xl tabular-nums">{money(c.raisedMinor)}</p>
          </CardContent>
        </Card>
        <Card>
          <CardContent className="p-4">
            <p className="text-muted-foreground text-sm">Donations / donors</p>
            <p className="font-semibold text-xl tabular-nums">
              {c.donationCount} / {c.donorCount}
            </p>
          </CardContent>
        </Card>
        <Card>
          <CardContent className="p-4">
            <p className="text-muted-foreground text-sm">Runs</p>
            <p className="font-medium">
              {formatDate(c.startAt)} – {c.endAt ? formatDate(c.endAt) : "open"}
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
          {!editing ? (
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
          {editing ? (
            <CampaignForm
              initial={c as never}
              submitLabel="Save changes"
              pending={update.isPending}
              errors={errors}
              currencyLocked={c.donationCount > 0}
              onSubmit={(v) => update.mutate({ id: c.id, data: v as never })}
            />
          ) : (
            <p className="whitespace-pre-wrap text-sm">{c.description || "No story yet."}</p>
          )}
        </CardContent>
      </Card>
      <HistoryPanel entityType="campaign" entityId={c.id} />
    </>
  );
}
