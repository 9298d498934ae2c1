import { campaignPhases, showsPhase } from "@core/campaign";
import { campaignStatuses } from "@core/status";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { Plus } from "lucide-react";
import { BulkConfirmButton } from "~/components/bulk-confirm-button";
import { DataTable } from "~/components/data-table/data-table";
import { DATE_PRESETS, DateRangePicker } from "~/components/date-range-picker";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Button } from "~/components/ui/button";
import { NativeSelect } from "~/components/ui/native-select";
import { Progress } from "~/components/ui/progress";
import type { RouterOutputs } from "~/lib/api-types";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatDate, formatMoney, formatPercent, titleCase } from "~/lib/format";
import { pageOf } from "~/lib/search-params";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

/** A campaign runs over months: the calendar's months and years are the useful quick ranges. */
const RUNNING_PRESETS = DATE_PRESETS.filter((p) => /month|year/.test(p.label));

const route = getRouteApi("/_authed/campaigns/");

type Row = RouterOutputs["campaigns"]["list"]["rows"][number];

export function CampaignsPage() {
  const tz = useTimeZone();
  const can = useCan();
  const s = route.useSearch();
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const qc = useQueryClient();
  // A hand-edited URL with the range backwards is shown as given but queried in order.
  const [from, to] = s.from && s.to && s.to < s.from ? [s.to, s.from] : [s.from, s.to];
  // The list's filters: its query and "all N matching" (campaigns.matchingIds) send the same ones.
  const filters = {
    status: s.status,
    phase: s.phase,
    from,
    to,
    q: s.q || undefined,
    goalReached: s.goal === undefined ? undefined : s.goal === "reached",
  };
  const q = useQuery({
    ...trpc.campaigns.list.queryOptions({ ...filters, ...pageOf(s) }),
    placeholderData: keepPreviousData,
  });
  const filter = (patch: Partial<typeof s>) => navigate({ search: (p) => ({ ...p, ...patch, page: 1 }) });
  const filtered = !!(s.status || s.phase || s.from || s.to || s.goal);
  const bulkArchive = useMutation(trpc.campaigns.bulkArchive.mutationOptions());
  const mayArchive = can({ campaign: ["update"] });
  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: "Campaign",
      meta: { sortKey: "title", card: "title" },
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
      meta: { card: "status" },
      cell: ({ row }) => (
        <span className="flex items-center gap-1.5">
          <StatusBadge status={row.original.status} />
          {showsPhase(row.original.status) ? (
            <span className="text-muted-foreground text-xs">{titleCase(row.original.phase)}</span>
          ) : null}
        </span>
      ),
    },
    {
      header: "Goal",
      meta: { card: "meta" },
      cell: ({ row }) =>
        row.original.goalProgress === null ? (
          <span className="text-muted-foreground">No goal</span>
        ) : (
          <div className="inline-flex min-w-28 items-center gap-2 align-middle">
            <Progress
              value={Math.min(100, row.original.goalProgress * 100)}
              aria-label="Goal progress"
              className="h-2"
            />
            <span className="whitespace-nowrap text-xs tabular-nums">
              {formatPercent(row.original.goalProgress)}
            </span>
          </div>
        ),
    },
    {
      header: "Raised",
      meta: { sortKey: "raised", align: "right", card: "amount" },
      cell: ({ row }) => formatMoney(row.original.raisedMinor, row.original.currency),
    },
    {
      header: "Donors",
      meta: { sortKey: "donors", align: "right", card: "meta", cardLabel: "Donors" },
      cell: ({ row }) => formatCount(row.original.donorCount),
    },
    {
      header: "Ends",
      meta: { sortKey: "endDate", card: "date", cardLabel: "Ends" },
      // The stored end is exclusive (midnight after the last day); show the last day.
      cell: ({ row }) => formatDate(row.original.endAt ? row.original.endAt - 1 : null, tz),
    },
  ];
  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Your fundraising campaigns."
        actions={
          can({ campaign: ["create"] }) ? (
            <Button asChild>
              <Link to="/campaigns/create">
                <Plus className="size-4" /> New campaign
              </Link>
            </Button>
          ) : null
        }
      />
      <DataTable<Row, RouterOutputs["campaigns"]["matchingIds"]>
        columns={columns}
        data={q.data?.rows}
        total={q.data?.total}
        state={s}
        isLoading={q.isPending}
        error={q.error ? errorInfo(q.error).message : null}
        onStateChange={(next) => navigate({ search: (p) => ({ ...p, ...next }) as typeof p })}
        filterCount={[s.status?.length, s.phase?.length, s.from, s.to, s.goal].filter(Boolean).length}
        searchPlaceholder="Search campaigns"
        emptyMessage={
          filtered || s.q ? "No campaigns match these filters." : "No campaigns yet. Create your first one."
        }
        facets={[
          {
            id: "status",
            title: "Status",
            options: campaignStatuses.map((v) => ({ value: v, label: titleCase(v) })),
            value: s.status,
            onChange: (v) => filter({ status: v as typeof s.status }),
          },
          {
            id: "phase",
            title: "Phase",
            options: campaignPhases.map((v) => ({ value: v, label: titleCase(v) })),
            value: s.phase,
            onChange: (v) => filter({ phase: v as typeof s.phase }),
          },
        ]}
        toolbar={
          <>
            <NativeSelect
              aria-label="Goal"
              value={s.goal ?? ""}
              onChange={(e) => filter({ goal: (e.target.value || undefined) as typeof s.goal })}
            >
              <option value="">Any goal state</option>
              <option value="reached">Goal reached</option>
              <option value="open">Goal not reached</option>
            </NativeSelect>
            <DateRangePicker
              label="Running"
              value={s}
              onChange={({ from, to }) => filter({ from, to })}
              presets={RUNNING_PRESETS}
            />
            {filtered ? (
              <Button
                variant="ghost"
                size="sm"
                className="h-9"
                onClick={() =>
                  navigate({
                    search: (p) => ({
                      ...p,
                      page: 1,
                      status: undefined,
                      phase: undefined,
                      from: undefined,
                      to: undefined,
                      goal: undefined,
                    }),
                  })
                }
              >
                Reset
              </Button>
            ) : null}
          </>
        }
        bulkActions={
          mayArchive
            ? (rows, clear, matching) => {
                const count = matching ? matching.ids.length : rows.length;
                const one = !matching && rows.length === 1;
                return (
                  <BulkConfirmButton
                    ids={matching ? matching.ids : rows.map((r) => r.id)}
                    act={(ids) => bulkArchive.mutateAsync({ ids })}
                    running="Archiving"
                    done="archived"
                    onDone={async () => {
                      clear();
                      await qc.invalidateQueries();
                    }}
                    disabled={
                      matching
                        ? !matching.allowedTransitions.includes("archived")
                        : !rows.every((r) => r.allowedTransitions.includes("archived"))
                    }
                    hint="Only completed or draft campaigns can be archived"
                    title={one ? `Archive “${rows[0]?.title}”?` : `Archive ${formatCount(count)} campaigns?`}
                    description={
                      matching
                        ? `All ${formatCount(count)} campaigns matching the filters leave the active lists. Their donations and history stay.`
                        : `${rows
                            .slice(0, 3)
                            .map((r) => `“${r.title}”`)
                            .join(
                              ", ",
                            )}${rows.length > 3 ? ` and ${formatCount(rows.length - 3)} more` : ""} ${
                            one ? "leaves" : "leave"
                          } the active lists. Their donations and history stay.`
                    }
                    confirmLabel={one ? "Archive campaign" : `Archive ${formatCount(count)} campaigns`}
                  >
                    Archive
                  </BulkConfirmButton>
                );
              }
            : undefined
        }
        selectMatching={
          mayArchive
            ? () =>
                qc.fetchQuery({
                  ...trpc.campaigns.matchingIds.queryOptions(filters),
                  staleTime: 0,
                })
            : undefined
        }
      />
    </>
  );
}
