import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { Download, Plus } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { z } from "zod";
import { DataTable, listSearch } from "~/components/data-table/data-table";
import { PageHeader } from "~/components/layout/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { errorInfo, formatDate, formatMoney } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

export const Route = createFileRoute("/_authed/donors/")({
  validateSearch: listSearch.extend({
    sort: z.enum(["name", "created", "lifetime", "lastGift"]).catch("created").default("created"),
    tagId: z.string().optional(),
    tierId: z.string().optional(),
  }),
  head: () => ({ meta: [{ title: "Donors · Almoner" }] }),
  component: DonorsPage,
});

type Row = {
  id: string;
  name: string;
  email: string | null;
  tier: { name: string; color: string } | null;
  tags: { id: string; name: string; color: string }[];
  lifetimeMinor: number;
  donationCount: number;
  lastGiftAt: number | null;
};

function DonorsPage() {
  const s = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const trpc = useTRPC();
  const qc = useQueryClient();
  const q = useQuery({
    ...trpc.donors.list.queryOptions({ ...s, q: s.q || undefined }),
    placeholderData: keepPreviousData,
  });
  const tags = useQuery(trpc.donors.tags.list.queryOptions());
  const tiers = useQuery(trpc.donors.tiers.list.queryOptions());
  const org = useQuery(trpc.organization.current.queryOptions());
  const assign = useMutation(trpc.donors.tags.assign.mutationOptions());
  const [bulkTag, setBulkTag] = React.useState("");
  const currency = org.data?.defaultCurrency ?? "USD";
  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: "Name",
      meta: { sortKey: "name" },
      cell: ({ row }) => (
        <Link
          to="/donors/$donorId"
          params={{ donorId: row.original.id }}
          className="font-medium hover:underline"
        >
          {row.original.name}
        </Link>
      ),
    },
    { header: "E-mail", cell: ({ row }) => row.original.email ?? "—" },
    {
      header: "Tier",
      cell: ({ row }) =>
        row.original.tier ? (
          <Badge
            variant="outline"
            style={{ borderColor: row.original.tier.color, color: row.original.tier.color }}
          >
            {row.original.tier.name}
          </Badge>
        ) : (
          "—"
        ),
    },
    {
      header: "Tags",
      cell: ({ row }) => (
        <span className="flex flex-wrap gap-1">
          {row.original.tags.map((t) => (
            <Badge key={t.id} variant="secondary">
              {t.name}
            </Badge>
          ))}
        </span>
      ),
    },
    {
      header: "Lifetime",
      meta: { sortKey: "lifetime", align: "right" },
      cell: ({ row }) => formatMoney(row.original.lifetimeMinor, currency),
    },
    {
      header: "Last gift",
      meta: { sortKey: "lastGift" },
      cell: ({ row }) => formatDate(row.original.lastGiftAt),
    },
  ];
  const sel = "h-9 rounded-md border border-input bg-transparent px-2 text-sm";
  return (
    <>
      <PageHeader
        title="Donors"
        description="Everyone who has given to your organization."
        actions={
          <>
            <Button variant="outline" asChild>
              <a
                download
                href={`/api/export/donors.csv?${new URLSearchParams(Object.entries({ q: s.q, tagId: s.tagId, tierId: s.tierId }).filter((e): e is [string, string] => !!e[1]))}`}
              >
                <Download className="size-4" /> Export CSV
              </a>
            </Button>
            <Button asChild>
              <Link to="/donors/create">
                <Plus className="size-4" /> New donor
              </Link>
            </Button>
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
        searchPlaceholder="Name, e-mail or company"
        emptyMessage="No donors match."
        toolbar={
          <>
            <select
              aria-label="Tag"
              className={sel}
              value={s.tagId ?? ""}
              onChange={(e) =>
                navigate({ search: (p) => ({ ...p, page: 1, tagId: e.target.value || undefined }) })
              }
            >
              <option value="">All tags</option>
              {tags.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} ({t.donors})
                </option>
              ))}
            </select>
            <select
              aria-label="Tier"
              className={sel}
              value={s.tierId ?? ""}
              onChange={(e) =>
                navigate({ search: (p) => ({ ...p, page: 1, tierId: e.target.value || undefined }) })
              }
            >
              <option value="">All tiers</option>
              {tiers.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </>
        }
        bulkActions={(rows, clear) => (
          <>
            <select
              aria-label="Tag to apply"
              className={sel}
              value={bulkTag}
              onChange={(e) => setBulkTag(e.target.value)}
            >
              <option value="">Choose a tag…</option>
              {tags.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {(["add", "remove"] as const).map((mode) => (
              <Button
                key={mode}
                size="sm"
                variant="outline"
                disabled={!bulkTag}
                onClick={async () => {
                  await assign.mutateAsync({ donorIds: rows.map((r) => r.id), tagIds: [bulkTag], mode });
                  toast.success(
                    `Tag ${mode === "add" ? "added to" : "removed from"} ${rows.length} donor(s)`,
                  );
                  clear();
                  await qc.invalidateQueries();
                }}
              >
                {mode === "add" ? "Add tag" : "Remove tag"}
              </Button>
            ))}
          </>
        )}
        footer={
          q.data?.totals ? (
            <span className="flex justify-between text-sm">
              <span>Lifetime giving of the filtered donors</span>
              <span className="tabular-nums">{formatMoney(q.data.totals.lifetimeMinor ?? 0, currency)}</span>
            </span>
          ) : null
        }
      />
    </>
  );
}
