/**
 * /recurring (issue 24, decision 030): the recurring revenue strip, then every plan of the
 * organization, failing first by default, with its filters, sort and page in the URL, the CSV of
 * the current filters and "New plan". Each row opens the plan (/recurring/$planId).
 */

import { donorLabel, paymentMethodLabel } from "@core/labels";
import {
  EXPECTING,
  PLAN_INTERVAL_LABELS,
  PLAN_STATUS_LABELS,
  planIntervals,
  planStatuses,
} from "@core/plans";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { Download, X } from "lucide-react";
import * as React from "react";
import { CampaignCombobox } from "~/components/campaign-combobox";
import { CurrencyFilter } from "~/components/currency-filter";
import { DataTable } from "~/components/data-table/data-table";
import { ExportProgress, useCsvExport } from "~/components/export-progress";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { NativeSelect } from "~/components/ui/native-select";
import type { RouterOutputs } from "~/lib/api-types";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatDate, formatMoney, titleCase } from "~/lib/format";
import { pageOf } from "~/lib/search-params";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC, useTRPCClient } from "~/lib/trpc";
import { AmountFilter } from "./amount-filter";
import { activeFilterCount, PLAN_FILTER_KEYS, planFilters } from "./filters";
import { NewPlanDialog } from "./new-plan-button";
import { daysLate, lateLabel, PLAN_SOURCE_LABELS, PlanStatusBadge, planAmount } from "./plan-bits";
import { PlanSummary } from "./plan-summary";
import type { PlanSearch } from "./search";

const route = getRouteApi("/_authed/recurring/");

type Row = RouterOutputs["plans"]["list"]["rows"][number];

// Shown only on /recurring?donorId= (a donor's page links there): it loads then, not with every visit.
const DonorChip = React.lazy(() =>
  import("~/features/donors/donor-chip").then((m) => ({ default: m.DonorChip })),
);

/**
 * The sort menu: the header buttons cannot say "failing first" (no column sorts that way) and a
 * phone's cards have no headers at all. Failing first reads one way only (the server ignores desc).
 */
const SORT_OPTIONS: { value: string; label: string; sort: PlanSearch["sort"]; desc: boolean }[] = [
  { value: "risk", label: "Failing first", sort: "risk", desc: true },
  { value: "next-asc", label: "Next donation, soonest", sort: "next", desc: false },
  { value: "next-desc", label: "Next donation, latest", sort: "next", desc: true },
  { value: "amount-desc", label: "Amount, highest", sort: "amount", desc: true },
  { value: "amount-asc", label: "Amount, lowest", sort: "amount", desc: false },
  { value: "given-desc", label: "Given, most", sort: "given", desc: true },
  { value: "given-asc", label: "Given, least", sort: "given", desc: false },
  { value: "created-desc", label: "Newest", sort: "created", desc: true },
  { value: "created-asc", label: "Oldest", sort: "created", desc: false },
];
const sortValue = (s: PlanSearch) => (s.sort === "risk" ? "risk" : `${s.sort}-${s.desc ? "desc" : "asc"}`);

/** Statuses in which a gift is still expected: only there is a next gift date worth showing. */
const expecting = (status: Row["status"]) => (EXPECTING as readonly string[]).includes(status);

export function PlansPage() {
  const tz = useTimeZone();
  const s = route.useSearch();
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const can = useCan();
  const org = useQuery(trpc.organization.current.queryOptions());
  const defaultCurrency = org.data?.defaultCurrency;
  // Amounts typed without a currency filter are in the organization's default currency.
  const amountCurrency = s.currency ?? defaultCurrency ?? "USD";
  const filters = planFilters(s, amountCurrency);
  const q = useQuery({
    ...trpc.plans.list.queryOptions({ ...filters, ...pageOf(s) }),
    placeholderData: keepPreviousData,
    // An amount filter waits for the currency it is read in, rather than asking twice.
    enabled: !!(s.currency || defaultCurrency) || (s.minAmount === undefined && s.maxAmount === undefined),
  });
  const set = (patch: Partial<PlanSearch>) => navigate({ search: (p) => ({ ...p, page: 1, ...patch }) });
  const clearFilters = () =>
    navigate({
      search: (p) => ({ ...p, page: 1, ...Object.fromEntries(PLAN_FILTER_KEYS.map((k) => [k, undefined])) }),
    });
  const filterCount = activeFilterCount(s);
  const now = Date.now();

  const [progress, runExport] = useCsvExport();
  const exportCsv = () =>
    runExport(async (show) => {
      const total = q.data?.total;
      show({ done: 0, total });
      const timeZone = org.data?.timeZone ?? tz;
      // The CSV writer loads when asked for (≈ 1.3 KiB gzip the list itself does not need).
      const { buildPlanCsv, saveCsv } = await import("./export");
      const { parts, rows } = await buildPlanCsv(
        (after) => client.plans.exportPage.mutate({ ...filters, after }),
        timeZone,
        (done) => show({ done, total }),
      );
      saveCsv(parts, org.data?.slug ?? "plans", "recurring-plans", timeZone);
      return `Exported ${formatCount(rows)} plan${rows === 1 ? "" : "s"}`;
    });

  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: "Donor",
      meta: { card: "meta" },
      // Two lines in the table; one run of text on a phone's card, where the name reads as text, not
      // muted, and the address moves to a line of its own, ending in "…" if it is still too long (L9).
      cell: ({ row }) => {
        const p = row.original;
        const name = donorLabel(p.donorName);
        return (
          <span className="min-w-0 sm:flex sm:flex-col">
            {p.donorId ? (
              <Link
                to="/donors/$donorId"
                params={{ donorId: p.donorId }}
                className="font-medium text-foreground hover:underline"
              >
                {name}
              </Link>
            ) : (
              <span className="font-medium text-foreground">{name}</span>
            )}
            {p.donorEmail && p.donorEmail !== p.donorName ? (
              <>
                <span aria-hidden className="sm:hidden">
                  {" · "}
                </span>
                <span
                  title={p.donorEmail}
                  className="text-muted-foreground max-sm:inline-block max-sm:max-w-full max-sm:truncate max-sm:align-bottom sm:break-all sm:text-xs"
                >
                  {p.donorEmail}
                </span>
              </>
            ) : null}
          </span>
        );
      },
    },
    {
      // The row's own link (the plan): a click on the row's empty space, and a phone card's tap, open it.
      header: "Amount",
      meta: { sortKey: "amount", card: "title" },
      cell: ({ row }) => {
        const p = row.original;
        return (
          <span className="flex flex-col whitespace-nowrap">
            <Link
              to="/recurring/$planId"
              params={{ planId: p.id }}
              className="font-medium tabular-nums hover:underline"
            >
              {planAmount(p.amountMinor, p.currency, p.interval)}
              <span className="sr-only">, plan of {donorLabel(p.donorName)}</span>
            </Link>
            {p.interval !== "month" ? (
              <span className="font-normal text-muted-foreground text-xs tabular-nums">
                {formatMoney(p.monthlyMinor, p.currency)} a month
              </span>
            ) : null}
          </span>
        );
      },
    },
    {
      header: "Status",
      meta: { card: "status" },
      cell: ({ row }) => (
        <span className="flex flex-wrap items-center gap-1">
          <PlanStatusBadge status={row.original.status} />
          {row.original.missedCount > 0 && expecting(row.original.status) ? (
            <span className="whitespace-nowrap text-muted-foreground text-xs">
              {formatCount(row.original.missedCount)} missed
            </span>
          ) : null}
        </span>
      ),
    },
    {
      header: "Next donation",
      meta: { sortKey: "next", card: "date", cardLabel: "Next" },
      cell: ({ row }) => {
        const p = row.original;
        if (!p.nextExpectedAt || !expecting(p.status))
          return <span className="text-muted-foreground">—</span>;
        const days = daysLate(p.nextExpectedAt, now);
        // The day's noon has passed: not late yet, only due (the grace period starts tomorrow).
        const dueToday = !days && p.nextExpectedAt < now;
        return (
          <span className="whitespace-nowrap sm:flex sm:flex-col">
            <span className={days ? "font-medium text-destructive" : undefined}>
              {formatDate(p.nextExpectedAt, tz)}
            </span>
            {/* In words, not colour alone (WCAG 1.4.1). */}
            {days || dueToday ? (
              <>
                <span aria-hidden className="sm:hidden">
                  {" · "}
                </span>
                <span
                  className={days ? "font-medium text-destructive text-xs" : "text-muted-foreground text-xs"}
                >
                  {days ? lateLabel(days) : "due today"}
                </span>
              </>
            ) : null}
          </span>
        );
      },
    },
    {
      header: "Donations",
      meta: { align: "right", card: "meta", cardLabel: "Donations" },
      cell: ({ row }) => formatCount(row.original.giftCount),
    },
    {
      header: "Given",
      meta: { sortKey: "given", align: "right", card: "meta", cardLabel: "Given" },
      cell: ({ row }) => formatMoney(row.original.givenMinor, row.original.currency),
    },
    {
      header: "Campaign",
      meta: { card: "meta" },
      cell: ({ row }) => row.original.campaignTitle ?? <span className="text-muted-foreground">General</span>,
    },
    // Off by default (Columns menu) so the table fits a 1280 px screen beside the sidebar.
    {
      header: "Source",
      meta: { defaultHidden: true },
      cell: ({ row }) => {
        const p = row.original;
        return (
          <span className="flex flex-col">
            <span>
              {p.gateway ? titleCase(p.gateway) : (PLAN_SOURCE_LABELS[p.source] ?? titleCase(p.source))}
            </span>
            {p.paymentMethod ? (
              <span className="text-muted-foreground text-xs">{paymentMethodLabel(p.paymentMethod)}</span>
            ) : null}
          </span>
        );
      },
    },
    {
      header: "Started",
      meta: { defaultHidden: true },
      cell: ({ row }) => formatDate(row.original.startedAt, tz),
    },
  ];

  const emptyMessage =
    filterCount > 0 ? (
      <span className="flex flex-col items-center gap-2">
        <span>No plans match these filters.</span>
        <Button variant="outline" size="sm" onClick={clearFilters}>
          <X className="size-4" aria-hidden /> Clear filters
        </Button>
      </span>
    ) : s.q ? (
      `No plans match “${s.q}”.`
    ) : (
      <span className="flex flex-col items-center gap-1">
        <span className="font-medium text-foreground">No recurring plans yet.</span>
        <span>
          Plans arrive with your payment processor's subscriptions
          {can({ donation: ["create"] }) ? ", or enter a standing order with New plan" : ""}.
        </span>
      </span>
    );

  return (
    <>
      <PageHeader
        title="Recurring plans"
        description="Donors who give every month, quarter or year: the plans failing first."
        actions={
          <>
            {can({ export: ["create"] }) ? (
              <Button variant="outline" disabled={!!progress || !q.data} onClick={() => void exportCsv()}>
                <Download className="size-4" aria-hidden /> Export CSV
              </Button>
            ) : null}
            {can({ donation: ["create"] }) ? <NewPlanDialog /> : null}
          </>
        }
      />
      <ExportProgress progress={progress} noun="plans" />
      <PlanSummary currency={s.currency} defaultCurrency={defaultCurrency} />
      {s.donorId ? (
        <React.Suspense fallback={null}>
          <DonorChip donorId={s.donorId} what="plans" onRemove={() => set({ donorId: undefined })} />
        </React.Suspense>
      ) : null}
      <DataTable<Row>
        columns={columns}
        data={q.data?.rows}
        total={q.data?.total}
        state={s}
        isLoading={q.isPending}
        error={q.error ? errorInfo(q.error).message : null}
        onStateChange={(next) => navigate({ search: (p) => ({ ...p, ...next }) as typeof p })}
        filterCount={filterCount}
        searchPlaceholder="Donor, e-mail, company, subscription id"
        emptyMessage={emptyMessage}
        facets={[
          {
            id: "status",
            title: "Status",
            options: planStatuses.map((v) => ({ value: v, label: PLAN_STATUS_LABELS[v] })),
            value: s.status,
            onChange: (v) => set({ status: v as PlanSearch["status"] }),
          },
        ]}
        toolbar={
          <>
            <NativeSelect
              aria-label="Interval"
              value={s.interval ?? ""}
              onChange={(e) => set({ interval: (e.target.value || undefined) as PlanSearch["interval"] })}
            >
              <option value="">Any interval</option>
              {planIntervals.map((i) => (
                <option key={i} value={i}>
                  {PLAN_INTERVAL_LABELS[i]}
                </option>
              ))}
            </NativeSelect>
            <CurrencyFilter value={s.currency} onChange={(currency) => set({ currency })} />
            <CampaignCombobox
              label="Campaign"
              className="sm:w-48"
              value={s.campaignId}
              onChange={(c) => set({ campaignId: c?.id })}
              none="All campaigns"
            />
            <AmountFilter
              currency={amountCurrency}
              min={s.minAmount}
              max={s.maxAmount}
              onChange={(minAmount, maxAmount) => set({ minAmount, maxAmount })}
            />
            <NativeSelect
              aria-label="Sort"
              value={sortValue(s)}
              onChange={(e) => {
                const o = SORT_OPTIONS.find((x) => x.value === e.target.value);
                if (o) set({ sort: o.sort, desc: o.desc });
              }}
            >
              {SORT_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
            {filterCount > 0 ? (
              <Button variant="ghost" size="sm" className="h-9" onClick={clearFilters}>
                <X className="size-4" aria-hidden /> Clear {filterCount} filter{filterCount === 1 ? "" : "s"}
              </Button>
            ) : null}
          </>
        }
      />
    </>
  );
}
