import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { Plus } from "lucide-react";
import { toast } from "sonner";
import { z } from "zod";
import { DataTable, listSearch } from "~/components/data-table/data-table";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Button } from "~/components/ui/button";
import { Progress } from "~/components/ui/progress";
import { errorInfo, formatDate, formatMoney, formatPercent, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { campaignStatuses } from "../../../../worker/domain/status";

export const Route = createFileRoute("/_authed/campaigns/")({
  validateSearch: listSearch.extend({
    sort: z
      .enum(["created", "title", "raised", "donors", "donations", "endDate"])
      .catch("created")
      .default("created"),
    status: z.array(z.enum(campaignStatuses)).optional().catch(undefined),
  }),
  head: () => ({ meta: [{ title: "Campaigns · Almoner" }] }),
  component: CampaignsPage,
});

type Row = {
  id: string;
  title: string;
  status: string;
  phase: string;
  currency: string;
  raisedMinor: number;
  donorCount: number;
  donationCount: number;
  goalProgress: number | null;
  endAt: number | null;
  allowedTransitions: string[];
};

function CampaignsPage() {
  const s = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const trpc = useTRPC();
  const qc = useQueryClient();
  const q = useQuery({
    ...trpc.campaigns.list.queryOptions({ ...s, q: s.q || undefined }),
    placeholderData: keepPreviousData,
  });
  const setStatus = useMutation(trpc.campaigns.setStatus.mutationOptions());
  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: "Campaign",
      meta: { sortKey: "title" },
      cell: ({ row }) => (
        <Link
          to="/campaigns/$campaignId"
          params={{ campaignId: row.original.id }}
          className="font-medium hover:underline"
        >
          {row.original.title}
        </Link>
      ),
    },
    {
      header: "Status",
      cell: ({ row }) => (
        <span className="flex items-center gap-1.5">
          <StatusBadge status={row.original.status} />
          {row.original.status === "active" ? (
            <span className="text-muted-foreground text-xs">{titleCase(row.original.phase)}</span>
          ) : null}
        </span>
      ),
    },
    {
      header: "Goal",
      cell: ({ row }) =>
        row.original.goalProgress === null ? (
          <span className="text-muted-foreground">No goal</span>
        ) : (
          <div className="flex min-w-28 items-center gap-2">
            <Progress
              value={Math.min(100, row.original.goalProgress * 100)}
              aria-label="Goal progress"
              className="h-2"
            />
            <span className="text-xs tabular-nums">{formatPercent(row.original.goalProgress)}</span>
          </div>
        ),
    },
    {
      header: "Raised",
      meta: { sortKey: "raised", align: "right" },
      cell: ({ row }) => formatMoney(row.original.raisedMinor, row.original.currency),
    },
    {
      header: "Donors",
      meta: { sortKey: "donors", align: "right" },
      cell: ({ row }) => row.original.donorCount,
    },
    { header: "Ends", meta: { sortKey: "endDate" }, cell: ({ row }) => formatDate(row.original.endAt) },
  ];
  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Your fundraising campaigns."
        actions={
          <Button asChild>
            <Link to="/campaigns/create">
              <Plus className="size-4" /> New campaign
            </Link>
          </Button>
        }
      />
      <DataTable<Row>
        columns={columns}
        data={q.data?.rows}
        total={q.data?.total}
        state={s}
        isLoading={q.isPending}
        error={q.error ? errorInfo(q.error).message : null}
        onStateChange={(next) => navigate({ search: (p) => ({ ...p, ...next }) as typeof p })}
        searchPlaceholder="Search campaigns"
        emptyMessage="No campaigns yet. Create your first one."
        toolbar={
          <select
            aria-label="Status"
            className="h-9 rounded-md border border-input bg-transparent px-2 text-sm"
            value={s.status?.[0] ?? ""}
            onChange={(e) =>
              navigate({
                search: (p) => ({
                  ...p,
                  page: 1,
                  status: e.target.value ? [e.target.value as (typeof campaignStatuses)[number]] : undefined,
                }),
              })
            }
          >
            <option value="">All statuses</option>
            {campaignStatuses.map((st) => (
              <option key={st} value={st}>
                {titleCase(st)}
              </option>
            ))}
          </select>
        }
        bulkActions={(rows, clear) => (
          <Button
            size="sm"
            variant="outline"
            disabled={!rows.every((r) => r.allowedTransitions.includes("archived"))}
            title="Only completed or draft campaigns can be archived"
            onClick={async () => {
              if (!window.confirm(`Archive ${rows.length} campaign(s)?`)) return;
              const res = await Promise.allSettled(
                rows.map((r) => setStatus.mutateAsync({ id: r.id, action: "archive" })),
              );
              toast.success(`${res.filter((r) => r.status === "fulfilled").length} archived`);
              clear();
              await qc.invalidateQueries();
            }}
          >
            Archive
          </Button>
        )}
      />
    </>
  );
}
