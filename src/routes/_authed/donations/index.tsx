import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { Download } from "lucide-react";
import { toast } from "sonner";
import { z } from "zod";
import { DataTable, listSearch } from "~/components/data-table/data-table";
import { PageHeader } from "~/components/layout/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Button } from "~/components/ui/button";
import { RecordDonationDialog } from "~/features/donations/record-donation-dialog";
import { errorInfo, formatDate, formatMoney, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { donationStatuses } from "../../../../worker/domain/status";

const search = listSearch.extend({
  sort: z.enum(["date", "amount", "status", "number"]).catch("date").default("date"),
  status: z.array(z.enum(donationStatuses)).optional().catch(undefined),
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .catch(undefined),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .catch(undefined),
  campaignId: z.string().optional(),
  trashed: z.boolean().optional().catch(undefined),
});

export const Route = createFileRoute("/_authed/donations/")({
  validateSearch: search,
  head: () => ({ meta: [{ title: "Donations · Almoner" }] }),
  component: DonationsPage,
});

type Row = {
  id: string;
  number: number;
  donorName: string | null;
  campaignTitle: string | null;
  amountMinor: number;
  refundedMinor: number;
  currency: string;
  status: string;
  paymentMethod: string;
  donatedAt: number;
  allowedTransitions: string[];
};

function DonationsPage() {
  const s = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const trpc = useTRPC();
  const qc = useQueryClient();
  const input = { ...s, trashed: s.trashed ?? false, q: s.q || undefined };
  const q = useQuery({ ...trpc.donations.list.queryOptions(input), placeholderData: keepPreviousData });
  const setStatus = useMutation(trpc.donations.updateStatus.mutationOptions());
  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: "#",
      meta: { sortKey: "number" },
      cell: ({ row }) => <span className="text-muted-foreground">#{row.original.number}</span>,
    },
    {
      header: "Donor",
      cell: ({ row }) => (
        <Link
          to="/donations/$donationId"
          params={{ donationId: row.original.id }}
          className="font-medium hover:underline"
        >
          {row.original.donorName || "No donor"}
        </Link>
      ),
    },
    {
      header: "Campaign",
      cell: ({ row }) => row.original.campaignTitle ?? <span className="text-muted-foreground">General</span>,
    },
    {
      header: "Status",
      meta: { sortKey: "status" },
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
    { header: "Method", cell: ({ row }) => titleCase(row.original.paymentMethod) },
    {
      header: "Amount",
      meta: { sortKey: "amount", align: "right" },
      cell: ({ row }) => formatMoney(row.original.amountMinor, row.original.currency),
    },
    { header: "Date", meta: { sortKey: "date" }, cell: ({ row }) => formatDate(row.original.donatedAt) },
  ];
  const exportHref = `/api/export/donations.csv?${new URLSearchParams(
    Object.entries({
      status: s.status?.join(","),
      from: s.from,
      to: s.to,
      q: s.q,
      campaignId: s.campaignId,
      trashed: s.trashed ? "true" : undefined,
    }).filter((e): e is [string, string] => !!e[1]),
  )}`;
  const statusFilter = (value: string) =>
    navigate({
      search: (p) => ({
        ...p,
        page: 1,
        status: value ? [value as (typeof donationStatuses)[number]] : undefined,
      }),
    });
  return (
    <>
      <PageHeader
        title="Donations"
        description="Every gift, with its status."
        actions={
          <>
            <Button variant="outline" asChild>
              <a href={exportHref} download>
                <Download className="size-4" /> Export CSV
              </a>
            </Button>
            <RecordDonationDialog />
          </>
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
        searchPlaceholder="Number, donor name or e-mail"
        emptyMessage="No donations match these filters."
        toolbar={
          <>
            <select
              aria-label="Status"
              className="h-9 rounded-md border border-input bg-transparent px-2 text-sm"
              value={s.status?.[0] ?? ""}
              onChange={(e) => statusFilter(e.target.value)}
            >
              <option value="">All statuses</option>
              {donationStatuses.map((st) => (
                <option key={st} value={st}>
                  {titleCase(st)}
                </option>
              ))}
            </select>
            <input
              aria-label="From"
              type="date"
              className="h-9 rounded-md border border-input bg-transparent px-2 text-sm"
              value={s.from ?? ""}
              onChange={(e) =>
                navigate({ search: (p) => ({ ...p, page: 1, from: e.target.value || undefined }) })
              }
            />
            <input
              aria-label="To"
              type="date"
              className="h-9 rounded-md border border-input bg-transparent px-2 text-sm"
              value={s.to ?? ""}
              onChange={(e) =>
                navigate({ search: (p) => ({ ...p, page: 1, to: e.target.value || undefined }) })
              }
            />
            <label className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={!!s.trashed}
                onChange={(e) =>
                  navigate({ search: (p) => ({ ...p, page: 1, trashed: e.target.checked || undefined }) })
                }
              />{" "}
              Trash
            </label>
          </>
        }
        bulkActions={(rows, clear) => (
          <Button
            size="sm"
            variant="outline"
            disabled={!rows.every((r) => r.allowedTransitions.includes("completed"))}
            title="Only for donations that may become completed"
            onClick={async () => {
              const results = await Promise.allSettled(
                rows.map((r) => setStatus.mutateAsync({ id: r.id, status: "completed" })),
              );
              const ok = results.filter((r) => r.status === "fulfilled").length;
              toast.success(`${ok} of ${rows.length} marked completed`);
              clear();
              await qc.invalidateQueries();
            }}
          >
            Mark completed
          </Button>
        )}
        footer={
          q.data?.totals ? (
            <span className="flex justify-between text-sm">
              <span>Counted total of the filtered set</span>
              <span className="tabular-nums">
                {(q.data.totals.currencies ?? 0) > 1
                  ? "Several currencies"
                  : formatMoney(q.data.totals.countedMinor ?? 0, q.data.rows[0]?.currency ?? "USD")}
              </span>
            </span>
          ) : null
        }
      />
    </>
  );
}
