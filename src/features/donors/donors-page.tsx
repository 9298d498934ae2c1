/**
 * /donors: the table with tier and tag chips, every filter in the URL, bulk tagging of the page or
 * of "all N matching" (./bulk-tags.tsx, decision 024) and the export.
 */
import { exportFileName } from "@core/csv";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { Download, ListFilter, Plus, Upload } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { DataTable } from "~/components/data-table/data-table";
import { DateRangePicker, type DayRange } from "~/components/date-range-picker";
import { ExportProgress } from "~/components/export-progress";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { ImportChip } from "~/features/imports/import-chip";
import { StatementRunDialog } from "~/features/receipts/statement-run-dialog";
import type { RouterOutputs } from "~/lib/api-types";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatDate, formatMoney, toMajorString, toMinor } from "~/lib/format";
import { useTimeZone, useToday } from "~/lib/time-zone";
import { useTRPC, useTRPCClient } from "~/lib/trpc";
import { BulkTags } from "./bulk-tags";
import { TagChip, TierBadge } from "./chips";
import { buildDonorCsv } from "./export";
import { advancedKeys, donorFilters, donorTypeLabels } from "./filters";
import { type DonorsSearch, donorTypes } from "./search";
import { TagManager } from "./tag-manager";

type Row = RouterOutputs["donors"]["list"]["rows"][number];

const sel = "h-9 rounded-md border border-input bg-transparent px-2 text-sm";

export function DonorsPage({
  search: s,
  setSearch,
}: {
  search: DonorsSearch;
  setSearch: (next: Partial<DonorsSearch>) => void;
}) {
  const tz = useTimeZone();
  const trpc = useTRPC();
  const can = useCan();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const filters = donorFilters(s);
  const q = useQuery({
    ...trpc.donors.list.queryOptions({
      ...filters,
      page: s.page,
      pageSize: s.pageSize,
      sort: s.sort,
      desc: s.desc,
    }),
    placeholderData: keepPreviousData,
  });
  const tags = useQuery(trpc.donors.tags.list.queryOptions());
  const tiers = useQuery(trpc.donors.tiers.list.queryOptions());
  const org = useQuery(trpc.organization.current.queryOptions());
  const [progress, setProgress] = React.useState<{ done: number; total: number } | null>(null);
  const currency = org.data?.defaultCurrency ?? "USD";

  async function exportCsv() {
    setProgress({ done: 0, total: 0 });
    try {
      const timeZone = org.data?.timeZone ?? "UTC";
      const { parts, rows } = await buildDonorCsv(
        (after) => client.donors.exportPage.mutate({ ...filters, after }),
        timeZone,
        (done, total) => setProgress({ done, total }),
      );
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob(parts, { type: "text/csv;charset=utf-8" }));
      a.download = exportFileName(org.data?.slug ?? "donors", "donors", Date.now(), timeZone);
      a.click();
      URL.revokeObjectURL(a.href);
      toast.success(`Exported ${formatCount(rows)} donors`);
    } catch (e) {
      toast.error(errorInfo(e).message);
    } finally {
      setProgress(null);
    }
  }

  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: "Name",
      meta: { sortKey: "name", card: "title" },
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
    {
      header: "E-mail",
      meta: { card: "meta" },
      cell: ({ row }) => <span className="break-all">{row.original.email ?? "—"}</span>,
    },
    { header: "Tier", meta: { card: "status" }, cell: ({ row }) => <TierBadge tier={row.original.tier} /> },
    {
      header: "Tags",
      meta: { card: "status" },
      cell: ({ row }) => (
        <span className="flex flex-wrap gap-1">
          {row.original.tags.map((t) => (
            <TagChip key={t.id} tag={t} />
          ))}
        </span>
      ),
    },
    {
      header: "Lifetime",
      meta: { sortKey: "lifetime", align: "right", card: "amount" },
      cell: ({ row }) => (
        <span className="tabular-nums">{formatMoney(row.original.lifetimeMinor, currency)}</span>
      ),
    },
    {
      header: "Gifts",
      meta: { align: "right", card: "meta", cardLabel: "Gifts" },
      cell: ({ row }) => row.original.donationCount,
    },
    {
      header: "Last gift",
      meta: { sortKey: "lastGift", card: "date", cardLabel: "Last gift" },
      cell: ({ row }) => formatDate(row.original.lastGiftAt, tz),
    },
  ];

  return (
    <>
      <PageHeader
        title="Donors"
        description="Everyone who has given to your organization."
        actions={
          <>
            {can({ tag: ["update"] }) ? <TagManager /> : null}
            {can({ receipt: ["send"] }) ? <StatementRunDialog /> : null}
            <Button variant="outline" disabled={!!progress} onClick={() => void exportCsv()}>
              <Download className="size-4" /> Export CSV
            </Button>
            {can({ import: ["create"] }) ? (
              <Button asChild variant="outline">
                <Link to="/donors/import">
                  <Upload className="size-4" /> Import
                </Link>
              </Button>
            ) : null}
            {can({ donor: ["create"] }) ? (
              <Button asChild>
                <Link to="/donors/create">
                  <Plus className="size-4" /> New donor
                </Link>
              </Button>
            ) : null}
          </>
        }
      />
      <ExportProgress progress={progress} noun="donors" />
      {s.importId ? (
        <ImportChip
          importId={s.importId}
          what="donors"
          onRemove={() => setSearch({ page: 1, importId: undefined })}
        />
      ) : null}
      <DataTable<Row>
        columns={columns}
        data={q.data?.rows}
        total={q.data?.total}
        state={s}
        isLoading={q.isPending}
        error={q.error ? errorInfo(q.error).message : null}
        onStateChange={(next) => setSearch(next as Partial<DonorsSearch>)}
        filterCount={
          [s.tagId, s.tierId].filter(Boolean).length + advancedKeys.filter((k) => s[k] !== undefined).length
        }
        searchPlaceholder="Name, e-mail or company"
        emptyMessage="No donors match."
        toolbar={
          <>
            <select
              aria-label="Tag"
              className={sel}
              value={s.tagId ?? ""}
              onChange={(e) => setSearch({ page: 1, tagId: e.target.value || undefined })}
            >
              <option value="">All tags</option>
              {tags.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} ({formatCount(t.donors)})
                </option>
              ))}
            </select>
            <select
              aria-label="Tier"
              className={sel}
              value={s.tierId ?? ""}
              onChange={(e) => setSearch({ page: 1, tierId: e.target.value || undefined })}
            >
              <option value="">All tiers</option>
              {tiers.data?.tiers.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            <MoreFilters search={s} setSearch={setSearch} currency={currency} />
          </>
        }
        bulkActions={
          can({ tag: ["update"] })
            ? (rows, clear, matching) => (
                <BulkTags rows={rows} matching={matching} clear={clear} tags={tags.data} />
              )
            : undefined
        }
        selectMatching={
          can({ tag: ["update"] })
            ? () => qc.fetchQuery({ ...trpc.donors.matchingIds.queryOptions(filters), staleTime: 0 })
            : undefined
        }
        footer={
          q.data?.totals ? (
            <span className="flex justify-between gap-2 text-sm">
              <span>Lifetime giving of the {formatCount(q.data.total)} filtered donors</span>
              <span className="tabular-nums">{formatMoney(q.data.totals.lifetimeMinor ?? 0, currency)}</span>
            </span>
          ) : null
        }
      />
    </>
  );
}

/** Type, donor type, last gift days, lifetime range and consent flags, applied together. */
function MoreFilters({
  search: s,
  setSearch,
  currency,
}: {
  search: DonorsSearch;
  setSearch: (next: Partial<DonorsSearch>) => void;
  currency: string;
}) {
  const today = useToday();
  const [open, setOpen] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);
  const [lastGift, setLastGift] = React.useState<DayRange>({});
  React.useEffect(() => {
    if (open) setLastGift({ from: s.lastGiftFrom, to: s.lastGiftTo });
  }, [open, s.lastGiftFrom, s.lastGiftTo]);
  const active = advancedKeys.filter((k) => s[k] !== undefined).length;
  const clear = Object.fromEntries(advancedKeys.map((k) => [k, undefined])) as Partial<DonorsSearch>;
  const flag = (v: FormDataEntryValue | null) => (v === "yes" ? true : v === "no" ? false : undefined);
  const major = (v: number | undefined) => (v === undefined ? "" : toMajorString(v, currency));
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" className="h-9">
          <ListFilter className="size-4" /> More filters{active ? ` (${active})` : ""}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-[min(22rem,calc(100vw-2rem))]">
        <form
          className="grid grid-cols-2 gap-3 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            const str = (k: string) => String(f.get(k) ?? "").trim() || undefined;
            try {
              const minL = str("minLifetime");
              const maxL = str("maxLifetime");
              const next: Partial<DonorsSearch> = {
                page: 1,
                type: str("type") as DonorsSearch["type"],
                donorType: str("donorType") as DonorsSearch["donorType"],
                lastGiftFrom: str("lastGiftFrom"),
                lastGiftTo: str("lastGiftTo"),
                minLifetimeMinor: minL ? toMinor(minL, currency) : undefined,
                maxLifetimeMinor: maxL ? toMinor(maxL, currency) : undefined,
                emailOptIn: flag(f.get("emailOptIn")),
                phoneOptIn: flag(f.get("phoneOptIn")),
                mailOptIn: flag(f.get("mailOptIn")),
              };
              if (next.lastGiftFrom && next.lastGiftTo && next.lastGiftFrom > next.lastGiftTo)
                return setError("The last-gift range ends before it starts.");
              if (
                next.minLifetimeMinor !== undefined &&
                next.maxLifetimeMinor !== undefined &&
                next.minLifetimeMinor > next.maxLifetimeMinor
              )
                return setError("The lifetime maximum is below the minimum.");
              setError(null);
              setSearch(next);
              setOpen(false);
            } catch {
              setError(`Enter amounts like 500.00 (${currency}).`);
            }
          }}
        >
          <label className="flex flex-col gap-1">
            Type
            <select name="type" aria-label="Type" className={sel} defaultValue={s.type ?? ""}>
              <option value="">Any</option>
              <option value="individual">Individual</option>
              <option value="organization">Organization</option>
            </select>
          </label>
          <label className="flex flex-col gap-1">
            Giving
            <select name="donorType" aria-label="Giving" className={sel} defaultValue={s.donorType ?? ""}>
              <option value="">Any</option>
              {donorTypes.map((t) => (
                <option key={t} value={t}>
                  {donorTypeLabels[t]}
                </option>
              ))}
            </select>
          </label>
          <div className="col-span-2 flex flex-col">
            <DateRangePicker
              label="Last gift"
              value={lastGift}
              onChange={setLastGift}
              names={["lastGiftFrom", "lastGiftTo"]}
              max={today}
            />
          </div>
          <label className="flex flex-col gap-1">
            Lifetime from ({currency})
            <input
              name="minLifetime"
              aria-label={`Lifetime from (${currency})`}
              inputMode="decimal"
              className={sel}
              defaultValue={major(s.minLifetimeMinor)}
            />
          </label>
          <label className="flex flex-col gap-1">
            Lifetime up to ({currency})
            <input
              name="maxLifetime"
              aria-label={`Lifetime up to (${currency})`}
              inputMode="decimal"
              className={sel}
              defaultValue={major(s.maxLifetimeMinor)}
            />
          </label>
          {(
            [
              ["emailOptIn", "E-mail consent"],
              ["phoneOptIn", "Phone consent"],
              ["mailOptIn", "Post consent"],
            ] as const
          ).map(([k, label]) => (
            <label key={k} className="flex flex-col gap-1">
              {label}
              <select
                name={k}
                aria-label={label}
                className={sel}
                defaultValue={s[k] === undefined ? "" : s[k] ? "yes" : "no"}
              >
                <option value="">Any</option>
                <option value="yes">Given</option>
                <option value="no">Not given</option>
              </select>
            </label>
          ))}
          {error ? (
            <p role="alert" className="col-span-2 text-destructive">
              {error}
            </p>
          ) : null}
          <div className="col-span-2 flex justify-end gap-2">
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => {
                setError(null);
                setSearch({ ...clear, page: 1 });
                setOpen(false);
              }}
            >
              Clear
            </Button>
            <Button type="submit" size="sm">
              Apply filters
            </Button>
          </div>
        </form>
      </PopoverContent>
    </Popover>
  );
}
