import { donorLabel, paymentMethodLabel } from "@core/labels";
import { donationStatuses } from "@core/status";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { Upload, X } from "lucide-react";
import { lazy, Suspense } from "react";
import { CampaignCombobox } from "~/components/campaign-combobox";
import { CurrencyFilter } from "~/components/currency-filter";
import { DataTable } from "~/components/data-table/data-table";
import { DateRangePicker } from "~/components/date-range-picker";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { NativeSelect } from "~/components/ui/native-select";
import type { MatchingDonations } from "~/features/donations/bulk-status";
import { ExportButton } from "~/features/donations/export-button";
import { activeFilterCount, donationFilters, exportUrl } from "~/features/donations/filters";
import { FrequencyOptions, MethodOptions, SourceOptions } from "~/features/donations/gift-filter-options";
import { RecordDonationDialog } from "~/features/donations/record-donation-button";
import type { DonationSearch } from "~/features/donations/search";
import type { RouterOutputs } from "~/lib/api-types";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatDate, formatMoney, titleCase } from "~/lib/format";
import { pageOf } from "~/lib/search-params";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

const route = getRouteApi("/_authed/donations/");

type Row = RouterOutputs["donations"]["list"]["rows"][number];

/** The bulk bar's actions load with the first selection (the page is at its size budget). */
const BulkActions = lazy(() => import("~/features/donations/bulk-actions"));
// A chip shows only on a list a link narrowed (?donorId=, ?importId=, ?campaignItemId=): it loads
// then, not with every visit.
const DonorChip = lazy(() => import("~/features/donors/donor-chip").then((m) => ({ default: m.DonorChip })));
const ItemChip = lazy(() => import("~/features/campaigns/item-chip").then((m) => ({ default: m.ItemChip })));
const ImportChip = lazy(() =>
  import("~/features/imports/import-chip").then((m) => ({ default: m.ImportChip })),
);

const SEGMENTS = { retained: "Retained donors", lapsed: "Lapsed donors" } as const;

export function DonationsPage() {
  const tz = useTimeZone();
  const s = route.useSearch();
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const can = useCan();
  const canBulk = can({ donation: ["update"] }) || can({ receipt: ["send"] });
  const qc = useQueryClient();
  const q = useQuery({
    ...trpc.donations.list.queryOptions({ ...donationFilters(s), ...pageOf(s) }),
    placeholderData: keepPreviousData,
  });
  const set = (patch: Partial<DonationSearch>) => navigate({ search: (p) => ({ ...p, page: 1, ...patch }) });
  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: "#",
      meta: { sortKey: "number", card: "meta" },
      cell: ({ row }) => <span className="text-muted-foreground">#{row.original.number}</span>,
    },
    {
      header: "Donor",
      meta: { card: "title" },
      cell: ({ row }) => (
        <Link
          to="/donations/$donationId"
          params={{ donationId: row.original.id }}
          className="font-medium hover:underline"
        >
          {donorLabel(row.original.donorName)}
        </Link>
      ),
    },
    {
      header: "Campaign",
      meta: { card: "meta" },
      cell: ({ row }) => row.original.campaignTitle ?? <span className="text-muted-foreground">General</span>,
    },
    {
      header: "Status",
      meta: { sortKey: "status", card: "status" },
      cell: ({ row }) => (
        <span className="flex flex-wrap items-center gap-1">
          <StatusBadge status={row.original.status} />
          {row.original.mode === "test" ? <Badge variant="outline">Test</Badge> : null}
        </span>
      ),
    },
    // Off by default (Columns menu) so the table fits a 1280 px screen beside the sidebar.
    {
      header: "Method",
      meta: { defaultHidden: true },
      cell: ({ row }) => paymentMethodLabel(row.original.paymentMethod),
    },
    {
      header: "Frequency",
      meta: { defaultHidden: true },
      cell: ({ row }) => titleCase(row.original.frequency),
    },
    {
      header: "Amount",
      meta: { sortKey: "amount", align: "right", card: "amount" },
      cell: ({ row }) => (
        <span className="flex flex-col items-end">
          <span>{formatMoney(row.original.amountMinor, row.original.currency)}</span>
          {row.original.refundedMinor > 0 ? (
            <span className="text-muted-foreground text-xs">
              −{formatMoney(row.original.refundedMinor, row.original.currency)} refunded
            </span>
          ) : null}
        </span>
      ),
    },
    {
      header: "Date",
      meta: { sortKey: "date", card: "date" },
      cell: ({ row }) => formatDate(row.original.donatedAt, tz),
    },
  ];
  const filters = activeFilterCount(s);
  const totals = q.data?.totalsByCurrency ?? [];
  return (
    <>
      <PageHeader
        title="Donations"
        description="Every donation, with its status. Totals count completed and partially refunded live donations, net of refunds."
        actions={
          <>
            {/* Hidden from those GET /api/export/donations.csv refuses, as /reports hides its CSV. */}
            {can({ export: ["create"], donation: ["view"] }) ? (
              <ExportButton href={exportUrl(s)} total={q.data?.total} />
            ) : null}
            {can({ import: ["create"] }) ? (
              <Button asChild variant="outline">
                <Link to="/donations/import">
                  <Upload className="size-4" /> Import
                </Link>
              </Button>
            ) : null}
            {can({ donation: ["create"] }) ? <RecordDonationDialog /> : null}
          </>
        }
      />
      {s.segment ? (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <Badge variant="secondary">{SEGMENTS[s.segment]}</Badge>
          {s.segment === "lapsed"
            ? "Donations of donors who gave in the previous 12 months and not since."
            : "Donations of donors who gave in the previous 12 months and again in the last 12."}
        </p>
      ) : null}
      <Suspense fallback={null}>
        {s.importId ? (
          <ImportChip importId={s.importId} what="gifts" onRemove={() => set({ importId: undefined })} />
        ) : null}
        {s.donorId ? (
          <DonorChip donorId={s.donorId} what="gifts" onRemove={() => set({ donorId: undefined })} />
        ) : null}
        {s.campaignItemId ? (
          <ItemChip
            campaignId={s.campaignId}
            itemId={s.campaignItemId}
            onRemove={() => set({ campaignItemId: undefined })}
          />
        ) : null}
      </Suspense>
      <DataTable<Row, MatchingDonations>
        columns={columns}
        data={q.data?.rows}
        total={q.data?.total}
        state={s}
        isLoading={q.isPending}
        error={q.error ? errorInfo(q.error).message : null}
        onStateChange={(next) => navigate({ search: (p) => ({ ...p, ...next }) as typeof p })}
        filterCount={filters}
        searchPlaceholder="Number, donor, e-mail, company, gateway id"
        emptyMessage="No donations match these filters."
        facets={[
          {
            id: "status",
            title: "Status",
            options: donationStatuses.map((v) => ({ value: v, label: titleCase(v) })),
            value: s.status,
            onChange: (v) => set({ status: v as DonationSearch["status"] }),
          },
        ]}
        toolbar={
          <>
            <DateRangePicker label="Donated" value={s} onChange={({ from, to }) => set({ from, to })} />
            <CurrencyFilter value={s.currency} onChange={(currency) => set({ currency })} />
            <CampaignCombobox
              label="Campaign"
              className="sm:w-48"
              value={s.campaignId}
              // An item belongs to one campaign: another campaign drops the item's filter.
              onChange={(c) => set({ campaignId: c?.id, campaignItemId: undefined })}
              scope={s.currency ? { currency: s.currency } : undefined}
              none="All campaigns"
            />
            <NativeSelect
              aria-label="Payment method"
              value={s.paymentMethod ?? ""}
              onChange={(e) => set({ paymentMethod: e.target.value || undefined })}
            >
              <MethodOptions current={s.paymentMethod} />
            </NativeSelect>
            <NativeSelect
              aria-label="Frequency"
              value={s.frequency ?? ""}
              onChange={(e) =>
                set({ frequency: (e.target.value || undefined) as DonationSearch["frequency"] })
              }
            >
              <FrequencyOptions />
            </NativeSelect>
            <NativeSelect
              aria-label="Source"
              value={s.source ?? ""}
              onChange={(e) => set({ source: (e.target.value || undefined) as DonationSearch["source"] })}
            >
              <SourceOptions />
            </NativeSelect>
            <NativeSelect
              aria-label="Mode"
              value={s.mode}
              onChange={(e) => set({ mode: e.target.value as DonationSearch["mode"] })}
            >
              <option value="live">Live donations</option>
              <option value="test">Test donations</option>
              <option value="all">Live and test donations</option>
            </NativeSelect>
            <label className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={!!s.trashed}
                onChange={(e) => set({ trashed: e.target.checked || undefined })}
              />{" "}
              Trash
            </label>
            {filters > 0 ? (
              <Button
                variant="ghost"
                size="sm"
                onClick={() =>
                  navigate({
                    search: (p) => ({ page: 1, pageSize: p.pageSize, sort: p.sort, desc: p.desc, q: p.q }),
                  })
                }
              >
                <X className="size-4" /> Clear {filters} filter{filters === 1 ? "" : "s"}
              </Button>
            ) : null}
          </>
        }
        bulkActions={
          canBulk
            ? (rows, clear, matching) => (
                <Suspense fallback={null}>
                  <BulkActions
                    rows={rows}
                    matching={matching}
                    clear={clear}
                    canUpdate={can({ donation: ["update"] })}
                    canSend={can({ receipt: ["send"] })}
                    canDelete={can({ donation: ["delete"] }) && !s.trashed}
                    filters={donationFilters(s)}
                  />
                </Suspense>
              )
            : undefined
        }
        selectMatching={
          canBulk
            ? () =>
                qc.fetchQuery({
                  ...trpc.donations.matchingIds.queryOptions(donationFilters(s)),
                  staleTime: 0,
                })
            : undefined
        }
        footer={
          q.data ? (
            <span className="flex flex-wrap justify-between gap-2 text-sm">
              <span>Counted total of the {formatCount(q.data.total)} filtered</span>
              <span className="flex flex-col items-end tabular-nums" data-testid="list-totals">
                {totals.length
                  ? totals.map((t) => (
                      <span key={t.currency}>
                        {formatMoney(t.countedMinor, t.currency)}{" "}
                        <span className="text-muted-foreground">
                          ({formatCount(t.countedCount)} of {formatCount(t.count)})
                        </span>
                      </span>
                    ))
                  : "—"}
              </span>
            </span>
          ) : null
        }
      />
    </>
  );
}
