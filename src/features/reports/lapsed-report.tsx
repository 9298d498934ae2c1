/**
 * LYBUNT and SYBUNT donors (issue 27; core/reports.ts has the definitions): one paged list, biggest
 * givers of their last year first, each donor linking to their page. The CSV is every donor of the
 * list under the current filters, assembled in the browser from reports.lapsedExportPage keyset
 * pages with progress (as the donors and plans exports are): a 100 000-donor list is 20 calls.
 */
import { csvLines, csvStart, LAPSED_COLUMNS } from "@core/exports/reports";
import { REPORT_DEFINITIONS } from "@core/reports";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { Download } from "lucide-react";
import { DataTable } from "~/components/data-table/data-table";
import { ExportProgress, useCsvExport } from "~/components/export-progress";
import { Button } from "~/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Segmented, SegmentedItem } from "~/components/ui/segmented";
import { DonorNameCell } from "~/features/donors/donor-name-cell";
import type { RouterOutputs } from "~/lib/api-types";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatDate, formatMoney } from "~/lib/format";
import { saveCsv } from "~/lib/save-csv";
import { useTRPC, useTRPCClient } from "~/lib/trpc";
import type { ReportsSearch } from "./search";
import { apiFilters, FiltersLine, reportFileWhat, reportsRoute, useReportOptions } from "./shared";

type Row = RouterOutputs["reports"]["lapsed"]["rows"][number] & { id: string };

export function LapsedReport({ s }: { s: ReportsSearch }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const can = useCan();
  const navigate = reportsRoute.useNavigate();
  const options = useReportOptions();
  const org = useQuery(trpc.organization.current.queryOptions());
  const filters = { ...apiFilters(s), kind: s.kind, q: s.q || undefined };
  const q = useQuery({
    ...trpc.reports.lapsed.queryOptions({ ...filters, page: s.page, pageSize: s.pageSize }),
    placeholderData: keepPreviousData,
  });
  const d = q.data;
  const tz = options.data?.timeZone ?? "UTC";
  const currency = d?.currency ?? s.currency ?? options.data?.defaultCurrency ?? "USD";
  const lybunt = s.kind === "lybunt";

  const [progress, runExport] = useCsvExport();
  const exportCsv = () =>
    runExport(async (show) => {
      const total = d?.total;
      show({ done: 0, total });
      const parts = [csvStart(LAPSED_COLUMNS)];
      let after: string | undefined;
      let done = 0;
      do {
        const page = await client.reports.lapsedExportPage.mutate({ ...filters, after });
        parts.push(csvLines(LAPSED_COLUMNS, page.rows, { currency: page.currency, timeZone: tz }));
        done += page.rows.length;
        show({ done, total: page.total ?? total });
        after = page.next;
      } while (after);
      saveCsv(parts, org.data?.slug ?? "almoner", reportFileWhat(s, s.kind, currency), tz);
      return `Exported ${formatCount(done)} donor${done === 1 ? "" : "s"}`;
    });

  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: "Donor",
      meta: { card: "title" },
      cell: ({ row }) => (
        <DonorNameCell donorId={row.original.donorId} name={row.original.name} email={row.original.email} />
      ),
    },
    {
      header: lybunt ? `Gave in ${d?.lastYear.label ?? "last year"}` : "In their last year",
      meta: { align: "right", card: "amount" },
      cell: ({ row }) => (
        <span className="flex flex-col items-end">
          <span className="font-medium tabular-nums">
            {formatMoney(row.original.lastYearMinor, currency)}
          </span>
          {lybunt ? null : (
            <span className="text-muted-foreground text-xs">{row.original.lastYearLabel}</span>
          )}
        </span>
      ),
    },
    {
      header: "Last donation",
      meta: { card: "date", cardLabel: "Last donation" },
      cell: ({ row }) => <span className="whitespace-nowrap">{formatDate(row.original.lastGiftAt, tz)}</span>,
    },
    {
      header: "Lifetime",
      meta: { align: "right", card: "meta", cardLabel: "Lifetime" },
      cell: ({ row }) => (
        <span className="tabular-nums">{formatMoney(row.original.lifetimeMinor, currency)}</span>
      ),
    },
    {
      header: "Donations",
      meta: { align: "right", card: "meta", cardLabel: "Donations" },
      cell: ({ row }) => formatCount(row.original.gifts),
    },
  ];

  const summary = d
    ? lybunt
      ? `${formatCount(d.total)} donor${d.total === 1 ? "" : "s"} gave ${formatMoney(d.totalMinor, currency)} in ${d.lastYear.label} and nothing yet in ${d.currentYear.label}.`
      : `${formatCount(d.total)} donor${d.total === 1 ? "" : "s"} last gave before ${d.lastYear.label}: ${formatMoney(d.totalMinor, currency)} in their last year of giving.`
    : "…";
  const empty = s.q
    ? `No donor matches “${s.q}”.`
    : lybunt
      ? "No LYBUNT donors: everyone who gave last year has given again this year (or no one gave last year)."
      : "No SYBUNT donors: no one stopped giving before last year.";

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Lapsed donors</CardTitle>
        <CardDescription>
          In {currency}, {s.basis === "fiscal" ? "fiscal" : "calendar"} years, in the organization's time
          zone.
        </CardDescription>
        <FiltersLine s={s} />
        {can({ export: ["create"] }) ? (
          <CardAction>
            <Button
              variant="outline"
              size="sm"
              disabled={!!progress || !d?.total}
              onClick={() => void exportCsv()}
            >
              <Download className="size-4" aria-hidden />
              <span className="max-sm:sr-only">Download CSV</span>
            </Button>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Segmented
          aria-label="Which lapsed donors"
          value={s.kind}
          onValueChange={(v) =>
            navigate({ search: (p) => ({ ...p, kind: v as ReportsSearch["kind"], page: 1 }) })
          }
        >
          <SegmentedItem value="lybunt">LYBUNT</SegmentedItem>
          <SegmentedItem value="sybunt">SYBUNT</SegmentedItem>
        </Segmented>
        <p className="text-muted-foreground text-sm">{REPORT_DEFINITIONS[s.kind]}</p>
        <p className="text-sm" aria-live="polite">
          {summary}
        </p>
        <ExportProgress progress={progress} noun="donors" />
        <DataTable<Row>
          columns={columns}
          data={d?.rows.map((r) => ({ ...r, id: r.donorId }))}
          total={d?.total}
          state={s}
          isLoading={q.isPending}
          error={q.error ? errorInfo(q.error).message : null}
          onStateChange={(next) => navigate({ search: (p) => ({ ...p, ...next }) as typeof p })}
          searchPlaceholder="Donor, e-mail or company"
          emptyMessage={empty}
        />
      </CardContent>
    </Card>
  );
}
