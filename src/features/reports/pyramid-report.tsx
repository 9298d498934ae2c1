/**
 * The giving pyramid (issue 27): the donors of one year by the tier their giving that year puts
 * them in (the tier rule of core/donor-tiers.ts, over the organization's tiers on /donor-tiers),
 * with donor count and amount per tier — a chart of centred bars, and the table with every figure.
 */
import { csvFile, PYRAMID_COLUMNS } from "@core/exports/reports";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import * as React from "react";
import { FiguresTable } from "~/components/data-table/data-table";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { RouterOutputs } from "~/lib/api-types";
import { useCan } from "~/lib/auth/can";
import { formatCount, formatMoney, formatPercent } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import type { ReportsSearch } from "./search";
import {
  apiFilters,
  Definition,
  DownloadCsv,
  FiltersLine,
  ReportError,
  ReportSkeleton,
  useReportOptions,
} from "./shared";

const PyramidChart = React.lazy(() => import("./charts").then((m) => ({ default: m.PyramidChart })));

type Pyramid = RouterOutputs["reports"]["pyramid"];
type Row = Pyramid["rows"][number];

export function PyramidReport({ s }: { s: ReportsSearch }) {
  const trpc = useTRPC();
  const can = useCan();
  const { tierId: _t, ...filters } = apiFilters(s);
  const q = useQuery(trpc.reports.pyramid.queryOptions({ ...filters, year: s.year }));
  const d = q.data;
  const money = (v: number) => formatMoney(v, d?.currency ?? "USD");
  const orgCurrency = useReportOptions().data?.defaultCurrency;
  const example = d?.rows.find((r) => r.minMinor)?.minMinor ?? null;
  const range = (r: Row) =>
    r.minMinor === null
      ? "Amounts no tier holds"
      : r.maxMinor === null
        ? `${money(r.minMinor)} and more`
        : `${money(r.minMinor)} to under ${money(r.maxMinor)}`;
  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: "Tier",
      cell: ({ row }) => (
        <span className="flex items-center gap-2 font-medium">
          <span
            className="inline-block size-2.5 rounded-full"
            style={{ background: row.original.color }}
            aria-hidden
          />
          {row.original.name}
        </span>
      ),
    },
    // The figures first, the range last: on a phone the figures show before the table scrolls.
    { header: "Donors", meta: { align: "right" }, cell: ({ row }) => formatCount(row.original.donors) },
    { header: "Amount", meta: { align: "right" }, cell: ({ row }) => money(row.original.amountMinor) },
    {
      header: "Share of donors",
      meta: { align: "right" },
      cell: ({ row }) => formatPercent(d?.donors ? row.original.donors / d.donors : null),
    },
    {
      header: "Share of amount",
      meta: { align: "right" },
      cell: ({ row }) => formatPercent(d?.amountMinor ? row.original.amountMinor / d.amountMinor : null),
    },
    {
      header: "Given in the year",
      cell: ({ row }) => <span className="text-muted-foreground">{range(row.original)}</span>,
    },
  ];
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Giving pyramid</CardTitle>
        <CardDescription>
          {d
            ? `${d.label}${d.year === d.currentYear ? " so far" : ""}, in ${d.currency}, in the organization's time zone.`
            : "…"}
        </CardDescription>
        <FiltersLine s={s} />
        <CardAction>
          <DownloadCsv
            currency={d?.currency ?? ""}
            what="giving-pyramid"
            disabled={!d}
            build={() =>
              csvFile(
                PYRAMID_COLUMNS,
                (d?.rows ?? []).map((r) => ({ ...r, year: d?.label ?? "" })),
                { currency: d?.currency ?? "", timeZone: "UTC" },
              )
            }
          />
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Definition of="pyramid" />
        {d && d.tiers === 0 ? (
          <p className="text-sm">
            No donor tiers are set, so every donor is in “No tier”.
            {can.platformAdmin ? (
              <>
                {" "}
                <Link to="/donor-tiers" className="underline underline-offset-4">
                  Set tiers
                </Link>
              </>
            ) : null}
          </p>
        ) : null}
        {/* Tiers hold minor units (core/reports.ts): in another currency the same figures apply,
            without an exchange rate; said with one of the ladder's own limits (issue 53, L2). */}
        {d && orgCurrency && d.currency !== orgCurrency && example ? (
          <p className="text-muted-foreground text-xs">
            Tier limits are set in {orgCurrency} and used as they are for {d.currency}, with no exchange rate:
            a tier from {formatMoney(example, orgCurrency)} starts at {formatMoney(example, d.currency)} here.
          </p>
        ) : null}
        {q.error ? <ReportError error={q.error} /> : null}
        {!d ? (
          q.error ? null : (
            <ReportSkeleton />
          )
        ) : d.donors === 0 ? (
          <p className="py-10 text-center text-muted-foreground text-sm">
            No donor gave in {d.currency} in {d.label} under these filters.
          </p>
        ) : (
          <>
            <React.Suspense fallback={<div className="h-40" aria-busy="true" />}>
              <PyramidChart
                rows={d.rows}
                currency={d.currency}
                label={`Giving pyramid of ${d.label}: ${d.rows.map((r) => `${r.name} ${r.donors} donors`).join(", ")}`}
              />
            </React.Suspense>
            <FiguresTable
              label="Giving pyramid, table"
              columns={columns}
              rows={d.rows}
              rowKey={(r) => r.tierId ?? "none"}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}
