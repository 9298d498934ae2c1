/**
 * /donors: the table with tier and tag chips, every filter in the URL, bulk tagging of the page or
 * of "all N matching" (./bulk-tags.tsx, decision 024) and the export.
 */

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ColumnDef } from "@tanstack/react-table";
import { Download, ListFilter, Plus, Upload } from "lucide-react";
import * as React from "react";
import { DataTable } from "~/components/data-table/data-table";
import { DateRangePicker, type DayRange } from "~/components/date-range-picker";
import { ExportProgress, useCsvExport } from "~/components/export-progress";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { NativeSelect } from "~/components/ui/native-select";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { DonorNameCell } from "~/features/donors/donor-name-cell";
import { ImportChip } from "~/features/imports/import-chip";
import { StatementRunDialog } from "~/features/receipts/statement-run-dialog";
import type { RouterOutputs } from "~/lib/api-types";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatDate, formatMoney } from "~/lib/format";
import { useMoneyInput } from "~/lib/money-locale";
import { saveCsv } from "~/lib/save-csv";
import { pageOf } from "~/lib/search-params";
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
    ...trpc.donors.list.queryOptions({ ...filters, ...pageOf(s) }),
    placeholderData: keepPreviousData,
  });
  const tags = useQuery(trpc.donors.tags.list.queryOptions());
  const tiers = useQuery(trpc.donors.tiers.list.queryOptions());
  const org = useQuery(trpc.organization.current.queryOptions());
  const [progress, runExport] = useCsvExport();
  const currency = org.data?.defaultCurrency ?? "USD";

  const exportCsv = () =>
    runExport(async (show) => {
      show({ done: 0, total: 0 });
      const timeZone = org.data?.timeZone ?? "UTC";
      const { parts, rows } = await buildDonorCsv(
        (after) => client.donors.exportPage.mutate({ ...filters, after }),
        timeZone,
        (done, total) => show({ done, total }),
      );
      saveCsv(parts, org.data?.slug ?? "donors", "donors", timeZone);
      return `Exported ${formatCount(rows)} donors`;
    });

  const columns: ColumnDef<Row, unknown>[] = [
    {
      header: "Name",
      meta: { sortKey: "name", card: "title" },
      // The e-mail under the name: one column fewer, so the table's every column, the default
      // order's included, fits at 1280 px (issue 53, L13).
      cell: ({ row }) => (
        <DonorNameCell donorId={row.original.id} name={row.original.name} email={row.original.email} />
      ),
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
      header: "Donations",
      meta: { align: "right", card: "meta", cardLabel: "Donations" },
      cell: ({ row }) => row.original.donationCount,
    },
    {
      header: "Last donation",
      meta: { sortKey: "lastGift", card: "date", cardLabel: "Last donation" },
      cell: ({ row }) => formatDate(row.original.lastGiftAt, tz),
    },
    // The list's default order, newest first (issue 53, L13): its header carries the arrow, so the
    // order reads as meant. An import writes the old system's "Date Added" here.
    {
      header: "Added",
      meta: { sortKey: "created", card: "meta", cardLabel: "Added" },
      cell: ({ row }) => formatDate(row.original.createdAt, tz),
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
            {/* Hidden from those the server refuses (donors.exportPage), as /reports hides its CSV. */}
            {can({ export: ["create"], donor: ["view"] }) ? (
              <Button variant="outline" disabled={!!progress} onClick={() => void exportCsv()}>
                <Download className="size-4" /> Export CSV
              </Button>
            ) : null}
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
            <NativeSelect
              aria-label="Tag"
              value={s.tagId ?? ""}
              onChange={(e) => setSearch({ page: 1, tagId: e.target.value || undefined })}
            >
              <option value="">All tags</option>
              {tags.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} ({formatCount(t.donors)})
                </option>
              ))}
            </NativeSelect>
            <NativeSelect
              aria-label="Tier"
              value={s.tierId ?? ""}
              onChange={(e) => setSearch({ page: 1, tierId: e.target.value || undefined })}
            >
              <option value="">All tiers</option>
              {tiers.data?.tiers.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </NativeSelect>
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
  const input = useMoneyInput();
  const major = (v: number | undefined) => (v === undefined ? "" : input.show(v, currency));
  const minor = (text: string) => {
    const r = input.read(text, currency);
    if (!r.ok) throw new Error(r.message);
    return r.minor;
  };
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
                minLifetimeMinor: minL ? minor(minL) : undefined,
                maxLifetimeMinor: maxL ? minor(maxL) : undefined,
                emailOptIn: flag(f.get("emailOptIn")),
                phoneOptIn: flag(f.get("phoneOptIn")),
                mailOptIn: flag(f.get("mailOptIn")),
              };
              if (next.lastGiftFrom && next.lastGiftTo && next.lastGiftFrom > next.lastGiftTo)
                return setError("The last-donation range ends before it starts.");
              if (
                next.minLifetimeMinor !== undefined &&
                next.maxLifetimeMinor !== undefined &&
                next.minLifetimeMinor > next.maxLifetimeMinor
              )
                return setError("The lifetime maximum is below the minimum.");
              setError(null);
              setSearch(next);
              setOpen(false);
            } catch (e) {
              setError(`${(e as Error).message}.`);
            }
          }}
        >
          <label className="flex flex-col gap-1">
            Type
            <NativeSelect name="type" aria-label="Type" defaultValue={s.type ?? ""}>
              <option value="">Any</option>
              <option value="individual">Individual</option>
              <option value="organization">Organization</option>
            </NativeSelect>
          </label>
          <label className="flex flex-col gap-1">
            Giving
            <NativeSelect name="donorType" aria-label="Giving" defaultValue={s.donorType ?? ""}>
              <option value="">Any</option>
              {donorTypes.map((t) => (
                <option key={t} value={t}>
                  {donorTypeLabels[t]}
                </option>
              ))}
            </NativeSelect>
          </label>
          <div className="col-span-2 flex flex-col">
            <DateRangePicker
              label="Last donation"
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
              <NativeSelect
                name={k}
                aria-label={label}
                defaultValue={s[k] === undefined ? "" : s[k] ? "yes" : "no"}
              >
                <option value="">Any</option>
                <option value="yes">Given</option>
                <option value="no">Not given</option>
              </NativeSelect>
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
