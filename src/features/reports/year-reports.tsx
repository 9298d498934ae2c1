/**
 * The three reports of reports.yearly (issue 27): giving by year, retention and recapture, and the
 * cohort table. One query answers all three (one pass over the gifts, worker/reports/queries.ts),
 * so switching between them asks nothing new. The definitions are core/reports.ts's.
 */
import {
  COHORT_COLUMNS,
  type CohortCsvRow,
  csvFile,
  GIVING_COLUMNS,
  RETENTION_COLUMNS,
} from "@core/exports/reports";
import { exponentOf } from "@core/money";
import { useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import * as React from "react";
import { FiguresTable, ScrollRegion } from "~/components/data-table/data-table";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { RouterOutputs } from "~/lib/api-types";
import { formatCount, formatMoney, formatPercent } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { cn } from "~/lib/utils";
import { changeWords } from "./change-words";
import type { ReportsSearch } from "./search";
import { apiFilters, Definition, DownloadCsv, FiltersLine, ReportError, ReportSkeleton } from "./shared";

const Charts = () => import("./charts");
const YearBars = React.lazy(() => Charts().then((m) => ({ default: m.YearBars })));
const LinesChart = React.lazy(() => Charts().then((m) => ({ default: m.LinesChart })));

type Yearly = RouterOutputs["reports"]["yearly"];

function useYearly(s: ReportsSearch) {
  const trpc = useTRPC();
  return useQuery(
    trpc.reports.yearly.queryOptions({ ...apiFilters(s), fromYear: s.fromYear, toYear: s.toYear }),
  );
}

/** "in USD, calendar years 2022–2026" */
function scopeLine(d: Yearly) {
  const first = d.giving[0]?.label;
  const last = d.giving[d.giving.length - 1]?.label;
  return `In ${d.currency}, ${d.basis === "fiscal" ? "fiscal" : "calendar"} years ${first === last ? first : `${first} to ${last}`}, in the organization's time zone.`;
}

function ChartSlot({ children }: { children: React.ReactNode }) {
  return <React.Suspense fallback={<div className="h-64" aria-busy="true" />}>{children}</React.Suspense>;
}

/** No counted gift at all under these filters: say so rather than draw zeros. */
function NoGifts({ currency }: { currency: string }) {
  return (
    <p className="py-10 text-center text-muted-foreground text-sm">
      No counted donations in {currency} match these filters yet.
    </p>
  );
}

type GivingRow = Yearly["giving"][number];

export function GivingReport({ s }: { s: ReportsSearch }) {
  const q = useYearly(s);
  const d = q.data;
  const money = (v: number) => formatMoney(v, d?.currency ?? "USD");
  const columns: ColumnDef<GivingRow, unknown>[] = [
    { header: "Year", cell: ({ row }) => <span className="font-medium">{row.original.label}</span> },
    { header: "Raised", meta: { align: "right" }, cell: ({ row }) => money(row.original.raisedMinor) },
    {
      header: "Change",
      meta: { align: "right" },
      cell: ({ row }) => {
        const c = changeWords(row.original.change);
        return c ? <span title={c.title}>{c.text}</span> : <span className="text-muted-foreground">—</span>;
      },
    },
    { header: "Donations", meta: { align: "right" }, cell: ({ row }) => formatCount(row.original.gifts) },
    { header: "Donors", meta: { align: "right" }, cell: ({ row }) => formatCount(row.original.donors) },
    {
      header: "New donors",
      meta: { align: "right" },
      cell: ({ row }) => formatCount(row.original.newDonors),
    },
    {
      header: "Average donation",
      meta: { align: "right" },
      cell: ({ row }) => money(row.original.averageMinor),
    },
  ];
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Giving by year</CardTitle>
        <CardDescription>{d ? scopeLine(d) : "…"}</CardDescription>
        <FiltersLine s={s} />
        <CardAction>
          <DownloadCsv
            currency={d?.currency ?? ""}
            what="giving-by-year"
            disabled={!d}
            build={() =>
              csvFile(GIVING_COLUMNS, d?.giving ?? [], { currency: d?.currency ?? "", timeZone: "UTC" })
            }
          />
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Definition of="giving" />
        {q.error ? <ReportError error={q.error} /> : null}
        {!d ? (
          q.error ? null : (
            <ReportSkeleton />
          )
        ) : d.firstYear === null ? (
          <NoGifts currency={d.currency} />
        ) : (
          <>
            <ChartSlot>
              <YearBars
                rows={d.giving.map((g) => ({ label: g.label, value: g.raisedMinor }))}
                currency={d.currency}
                yStep={10 ** exponentOf(d.currency)}
              />
            </ChartSlot>
            <FiguresTable
              label="Giving by year, table"
              columns={columns}
              rows={d.giving}
              rowKey={(r) => String(r.year)}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}

type RetentionRow = Yearly["retention"][number];

export function RetentionReport({ s }: { s: ReportsSearch }) {
  const q = useYearly(s);
  const d = q.data;
  const of = (n: number, base: number) => (
    <span className="flex flex-col items-end">
      <span>{formatCount(n)}</span>
      <span className="text-muted-foreground text-xs">of {formatCount(base)}</span>
    </span>
  );
  const columns: ColumnDef<RetentionRow, unknown>[] = [
    // The two rates first: on a phone they show before the table scrolls.
    { header: "Year", cell: ({ row }) => <span className="font-medium">{row.original.label}</span> },
    {
      header: "Retention",
      meta: { align: "right" },
      cell: ({ row }) => <span className="font-medium">{formatPercent(row.original.retention)}</span>,
    },
    {
      header: "Recapture",
      meta: { align: "right" },
      cell: ({ row }) => <span className="font-medium">{formatPercent(row.original.recapture)}</span>,
    },
    {
      header: "Retained",
      meta: { align: "right" },
      cell: ({ row }) => of(row.original.retained, row.original.previousDonors),
    },
    {
      header: "Recaptured",
      meta: { align: "right" },
      cell: ({ row }) => of(row.original.recaptured, row.original.lapsed),
    },
    { header: "New", meta: { align: "right" }, cell: ({ row }) => formatCount(row.original.newDonors) },
    { header: "Donors", meta: { align: "right" }, cell: ({ row }) => formatCount(row.original.donors) },
  ];
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Retention and recapture</CardTitle>
        <CardDescription>{d ? scopeLine(d) : "…"}</CardDescription>
        <FiltersLine s={s} />
        <CardAction>
          <DownloadCsv
            currency={d?.currency ?? ""}
            what="retention"
            disabled={!d}
            build={() =>
              csvFile(RETENTION_COLUMNS, d?.retention ?? [], { currency: d?.currency ?? "", timeZone: "UTC" })
            }
          />
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul className="flex flex-col gap-1 text-muted-foreground text-sm">
          <li>
            Retention for a year: donors of the year before who gave again, over the donors of the year
            before.
          </li>
          <li>
            Recapture for a year: donors who gave before the year before but not in it (lapsed) and gave
            again, over those lapsed donors.
          </li>
        </ul>
        {q.error ? <ReportError error={q.error} /> : null}
        {!d ? (
          q.error ? null : (
            <ReportSkeleton />
          )
        ) : d.firstYear === null ? (
          <NoGifts currency={d.currency} />
        ) : (
          <>
            <ChartSlot>
              <LinesChart
                label={`Retention and recapture rates per year, ${d.retention.length} years`}
                keys={d.retention.map((r) => r.label)}
                series={[
                  {
                    name: "Retention",
                    color: "#0d9488",
                    points: d.retention.map((r) => ({ key: r.label, value: r.retention })),
                  },
                  {
                    name: "Recapture",
                    color: "#d97706",
                    points: d.retention.map((r) => ({ key: r.label, value: r.recapture })),
                  },
                ]}
                xTick={(k) => k}
                xLong={(k) => k}
                yTick={(v) => formatPercent(v)}
                yLong={(v) => formatPercent(v, 1)}
                yStep={0.01}
                yMin={1}
              />
            </ChartSlot>
            <FiguresTable
              label="Retention and recapture, table"
              columns={columns}
              rows={d.retention}
              rowKey={(r) => String(r.year)}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The heat of a cohort cell: the teal of the charts, stronger with the share (never so strong the text fades). */
function heat(share: number | null) {
  if (share === null || share === 0) return undefined;
  return { background: `color-mix(in oklab, #14b8a6 ${Math.round(8 + share * 40)}%, transparent)` };
}

export function CohortReport({ s }: { s: ReportsSearch }) {
  const q = useYearly(s);
  const d = q.data;
  const labels = new Map(d?.giving.map((g) => [g.year, g.label]));
  const csvRows = (d?.cohorts ?? []).flatMap((c) =>
    c.cells.map(
      (cell): CohortCsvRow => ({
        firstYearLabel: c.label,
        cohortDonors: c.donors,
        yearLabel: labels.get(cell.year) ?? String(cell.year),
        donors: cell.donors,
        share: cell.share,
        amountMinor: cell.amountMinor,
      }),
    ),
  );
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Cohorts</CardTitle>
        <CardDescription>{d ? scopeLine(d) : "…"}</CardDescription>
        <FiltersLine s={s} />
        <CardAction>
          <DownloadCsv
            currency={d?.currency ?? ""}
            what="cohorts"
            disabled={!d}
            build={() => csvFile(COHORT_COLUMNS, csvRows, { currency: d?.currency ?? "", timeZone: "UTC" })}
          />
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Definition of="cohorts" />
        {q.error ? <ReportError error={q.error} /> : null}
        {!d ? (
          q.error ? null : (
            <ReportSkeleton />
          )
        ) : d.firstYear === null ? (
          <NoGifts currency={d.currency} />
        ) : (
          <ScrollRegion label="Cohorts, table">
            <table className="w-full caption-bottom text-sm">
              <thead>
                <tr className="border-b">
                  <th scope="col" className="h-10 whitespace-nowrap px-2 text-left font-medium">
                    First donation
                  </th>
                  <th scope="col" className="h-10 whitespace-nowrap px-2 text-right font-medium">
                    Donors
                  </th>
                  {d.giving.map((g) => (
                    <th
                      key={g.year}
                      scope="col"
                      className="h-10 whitespace-nowrap px-2 text-right font-medium"
                    >
                      {g.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {d.cohorts.map((c) => (
                  <tr key={c.firstYear} className="border-b last:border-0">
                    <th scope="row" className="whitespace-nowrap px-2 py-2 text-left font-medium">
                      {c.label}
                    </th>
                    <td className="px-2 py-2 text-right tabular-nums">{formatCount(c.donors)}</td>
                    {d.giving.map((g) => {
                      const cell = c.cells.find((x) => x.year === g.year);
                      if (!cell) return <td key={g.year} className="px-2 py-2" aria-hidden="true" />;
                      return (
                        <td
                          key={g.year}
                          className={cn(
                            "px-2 py-2 text-right tabular-nums",
                            !c.donors && "text-muted-foreground",
                          )}
                          style={heat(cell.share)}
                        >
                          <span className="flex flex-col items-end">
                            <span className="font-medium">{formatPercent(cell.share)}</span>
                            <span className="text-xs">{formatCount(cell.donors)}</span>
                          </span>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </CardContent>
    </Card>
  );
}
