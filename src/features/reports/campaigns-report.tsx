/**
 * Campaigns side by side (issue 27): 2–4 campaigns of one currency over the same period — raised,
 * gifts, donors, average and median gift, first and last gift — and what each had raised day by
 * day, lined up by days since each started or on the calendar.
 */
import { CAMPAIGN_COLUMNS, csvFile } from "@core/exports/reports";
import { COMPARE_MAX, COMPARE_MIN } from "@core/reports";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import * as React from "react";
import { campaignSearchInput } from "~/components/campaign-combobox";
import { CampaignPicker } from "~/components/campaign-picker";
import { FiguresTable } from "~/components/data-table/data-table";
import { DateRangePicker, formatDayRange } from "~/components/date-range-picker";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Segmented, SegmentedItem } from "~/components/ui/segmented";
import type { RouterOutputs } from "~/lib/api-types";
import { formatCount, formatDate, formatMoney } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import type { ReportsSearch } from "./search";
import {
  Definition,
  DownloadCsv,
  FiltersLine,
  giftFilters,
  ReportError,
  ReportSkeleton,
  reportsRoute,
  useReportOptions,
} from "./shared";

const CumulativeChart = React.lazy(() => import("./charts").then((m) => ({ default: m.CumulativeChart })));

type Compared = RouterOutputs["reports"]["campaigns"];
type Campaign = Compared["campaigns"][number];

export function CampaignsReport({ s }: { s: ReportsSearch }) {
  const trpc = useTRPC();
  const navigate = reportsRoute.useNavigate();
  const options = useReportOptions();
  const currency = s.currency ?? options.data?.defaultCurrency ?? "USD";
  // How many campaigns raise this currency: the picker's own first page, so opening it is cached.
  const inCurrency = useQuery(trpc.campaigns.list.queryOptions(campaignSearchInput({ currency })));
  // Until someone chooses, the three campaigns that raised most in this currency (issue 53, L2):
  // the report opens on a comparison, not on an empty picker.
  const top = useQuery({
    ...trpc.campaigns.list.queryOptions({
      ...campaignSearchInput({ currency }),
      sort: "raised",
      desc: true,
      pageSize: 10,
    }),
    enabled: s.compare === undefined,
  });
  const suggested = s.compare === undefined;
  const chosen = s.compare ?? top.data?.rows.slice(0, 3).map((c) => c.id) ?? [];
  const enough = chosen.length >= COMPARE_MIN;
  const q = useQuery({
    ...trpc.reports.campaigns.queryOptions({
      campaignIds: chosen,
      currency: s.currency,
      tierId: s.tierId,
      tagId: s.tagId,
      ...giftFilters(s),
      from: s.from,
      to: s.to,
    }),
    enabled: enough,
  });
  const d = enough ? q.data : undefined;
  const tz = options.data?.timeZone ?? "UTC";
  const set = (patch: Partial<ReportsSearch>) => navigate({ search: (p) => ({ ...p, ...patch }) });
  const period = formatDayRange({ from: s.from, to: s.to }, "All time");

  type Measure = { id: string; label: string; value: (c: Campaign) => React.ReactNode };
  const money = (v: number) => formatMoney(v, d?.currency ?? currency);
  const measures: Measure[] = [
    { id: "raised", label: "Raised", value: (c) => money(c.raisedMinor) },
    { id: "gifts", label: "Donations", value: (c) => formatCount(c.gifts) },
    { id: "donors", label: "Donors", value: (c) => formatCount(c.donors) },
    { id: "average", label: "Average donation", value: (c) => money(c.averageMinor) },
    { id: "median", label: "Median donation", value: (c) => money(c.medianMinor) },
    { id: "first", label: "First donation", value: (c) => formatDate(c.firstGiftAt, tz) },
    { id: "last", label: "Last donation", value: (c) => formatDate(c.lastGiftAt, tz) },
  ];
  const columns: ColumnDef<Measure, unknown>[] = [
    {
      header: () => <span className="sr-only">Figure</span>,
      id: "measure",
      cell: ({ row }) => <span className="font-medium">{row.original.label}</span>,
    },
    ...(d?.campaigns ?? []).map(
      (c): ColumnDef<Measure, unknown> => ({
        id: c.id,
        header: () => (
          <Link to="/campaigns/$campaignId" params={{ campaignId: c.id }} className="hover:underline">
            {c.title}
          </Link>
        ),
        meta: { align: "right" },
        cell: ({ row }) => row.original.value(c),
      }),
    ),
  ];

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Campaigns side by side</CardTitle>
        <CardDescription>
          {period}, in {currency}, in the organization's time zone.
        </CardDescription>
        <FiltersLine s={s} />
        <CardAction>
          <DownloadCsv
            currency={d?.currency ?? currency}
            what="campaigns"
            disabled={!d}
            build={() =>
              csvFile(
                CAMPAIGN_COLUMNS,
                (d?.campaigns ?? []).map((c) => ({ ...c, period: `${d?.from} to ${d?.to}` })),
                { currency: d?.currency ?? currency, timeZone: tz },
              )
            }
          />
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Definition of="campaigns" />
        <div className="flex flex-wrap items-center gap-2">
          <CampaignPicker
            title={`Campaigns (${COMPARE_MIN}–${COMPARE_MAX})`}
            value={chosen}
            onChange={(v) => set({ compare: v })}
            max={COMPARE_MAX}
            scope={{ currency }}
            titles={new Map(d?.campaigns.map((c) => [c.id, c.title]))}
          />
          <DateRangePicker
            label="Period"
            empty="All time"
            value={{ from: s.from, to: s.to }}
            max={options.data?.today}
            onChange={({ from, to }) => set({ from, to })}
          />
          <Segmented
            aria-label="Line the campaigns up"
            value={s.align}
            onValueChange={(v) => set({ align: v as ReportsSearch["align"] })}
          >
            <SegmentedItem value="start">Days since start</SegmentedItem>
            <SegmentedItem value="calendar">Calendar</SegmentedItem>
          </Segmented>
        </div>
        {suggested && enough ? (
          <p className="text-muted-foreground text-sm">
            The campaigns that raised most in {currency}; choose others to compare them instead.
          </p>
        ) : null}
        {suggested && top.isPending ? (
          <ReportSkeleton />
        ) : !enough ? (
          <p className="py-10 text-center text-muted-foreground text-sm">
            {inCurrency.data && inCurrency.data.total < COMPARE_MIN
              ? `Fewer than ${COMPARE_MIN} campaigns raise ${currency}: nothing to compare in this currency.`
              : `Choose ${COMPARE_MIN} to ${COMPARE_MAX} campaigns to compare.`}
          </p>
        ) : q.error ? (
          <ReportError error={q.error} />
        ) : !d ? (
          <ReportSkeleton />
        ) : (
          <>
            <FiguresTable
              label="Campaigns side by side, table"
              columns={columns}
              rows={measures}
              rowKey={(m) => m.id}
            />
            {d.campaigns.every((c) => c.gifts === 0) ? (
              <p className="py-6 text-center text-muted-foreground text-sm">
                None of these campaigns had a counted donation in this period.
              </p>
            ) : (
              <>
                <p className="text-muted-foreground text-sm">
                  {s.align === "start"
                    ? "Raised so far, by days since each campaign started (its start date, or its first donation in the period)."
                    : "Raised so far, day by day over the period."}
                </p>
                <React.Suspense fallback={<div className="h-72" aria-busy="true" />}>
                  <CumulativeChart
                    campaigns={d.campaigns}
                    align={s.align}
                    from={d.from}
                    to={d.to}
                    currency={d.currency}
                  />
                </React.Suspense>
              </>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
