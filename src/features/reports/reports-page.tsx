/**
 * /reports (issue 27): six fundraising reports as tabs — giving by year, retention and recapture,
 * cohorts, the giving pyramid, lapsed donors (LYBUNT and SYBUNT), campaigns side by side — over
 * the same filters as the lists (year basis and years, currency, campaign, donor tier and tag), all
 * in the URL. Every role that sees donations reads them; those with the export right download
 * each as CSV. The tabs are Radix's (arrow keys move between reports); every panel is in the page
 * so each tab's aria-controls names one, and only the chosen report renders and asks the server.
 */

import { MONTH_NAMES } from "@core/date-format";
import {
  REPORT_TITLES,
  REPORT_VIEWS,
  REPORT_YEAR_MIN,
  type ReportView,
  reportYearLabel,
  startMonthOf,
  yearOfDay,
} from "@core/reports";
import { localDay } from "@core/time";
import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import * as React from "react";
import { CampaignCombobox } from "~/components/campaign-combobox";
import { FilterSheet } from "~/components/data-table/data-table";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { NativeSelect } from "~/components/ui/native-select";
import { Skeleton } from "~/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { FrequencyOptions, MethodOptions, SourceOptions } from "~/features/donations/gift-filter-options";
import { useTRPC } from "~/lib/trpc";
import { SM_UP, useMediaQuery } from "~/lib/use-media-query";
import { cn } from "~/lib/utils";
import type { ReportsSearch } from "./search";
import {
  FILTER_LABELS,
  narrowingFilters,
  REPORT_USES,
  ReportError,
  ReportSkeleton,
  reportsRoute,
  useReportOptions,
} from "./shared";

type View = React.ComponentType<{ s: ReportsSearch }>;

/**
 * The reports load in the browser, each when chosen: the year reports need no list table, the
 * lapsed list no chart, only the campaigns the date picker. Their figures are fetched by the
 * browser (no loader), so the server would render their skeletons only: it renders the skeleton
 * itself, and in the server build these imports are dead code, so the Worker does not upload the
 * reports and their charts (as src/components/date-range-picker.tsx keeps the calendar out).
 */
const views = import.meta.env.SSR
  ? null
  : {
      years: () => import("./year-reports"),
      pyramid: () => import("./pyramid-report"),
      lapsed: () => import("./lapsed-report"),
      campaigns: () => import("./campaigns-report"),
    };
const view = <M,>(load: (v: NonNullable<typeof views>) => Promise<M>, pick: (m: M) => View) =>
  React.lazy(async () => ({ default: pick(await load(views as NonNullable<typeof views>)) }));
const REPORTS: Record<ReportView, React.LazyExoticComponent<View>> = {
  giving: view(
    (v) => v.years(),
    (m) => m.GivingReport,
  ),
  retention: view(
    (v) => v.years(),
    (m) => m.RetentionReport,
  ),
  cohorts: view(
    (v) => v.years(),
    (m) => m.CohortReport,
  ),
  pyramid: view(
    (v) => v.pyramid(),
    (m) => m.PyramidReport,
  ),
  lapsed: view(
    (v) => v.lapsed(),
    (m) => m.LapsedReport,
  ),
  campaigns: view(
    (v) => v.campaigns(),
    (m) => m.CampaignsReport,
  ),
};

/** False on the server and while hydrating, true after: the report renders in the browser only. */
const noSubscribe = () => () => {};
function useHydrated() {
  return React.useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
}

const FILTER_KEYS = [
  "currency",
  "campaignId",
  "tierId",
  "tagId",
  "paymentMethod",
  "frequency",
  "source",
  "fromYear",
  "toYear",
  "year",
  "basis",
] as const satisfies readonly (keyof ReportsSearch)[];

export function ReportsPage() {
  const s = reportsRoute.useSearch();
  const navigate = reportsRoute.useNavigate();
  const Report = REPORTS[s.view];
  const hydrated = useHydrated();
  return (
    <>
      <PageHeader
        title="Reports"
        description="Who keeps giving, who stopped, and how the years and campaigns compare."
      />
      <Tabs
        value={s.view}
        onValueChange={(v) =>
          navigate({ search: (p) => ({ ...p, view: v as ReportView, page: 1, q: undefined }) })
        }
        className="gap-4"
      >
        <TabsList
          aria-label="Reports"
          className="grid h-auto w-full grid-cols-2 gap-1 sm:inline-flex sm:w-fit sm:flex-wrap"
        >
          {REPORT_VIEWS.map((v) => (
            <TabsTrigger key={v} value={v} className="h-8">
              {REPORT_TITLES[v]}
            </TabsTrigger>
          ))}
        </TabsList>
        <FilterBar s={s} />
        {REPORT_VIEWS.map((v) => (
          <TabsContent key={v} value={v} forceMount className="min-w-0 data-[state=inactive]:hidden">
            {v !== s.view ? null : hydrated ? (
              <React.Suspense fallback={<ReportSkeleton />}>
                <Report s={s} />
              </React.Suspense>
            ) : (
              <ReportSkeleton />
            )}
          </TabsContent>
        ))}
      </Tabs>
    </>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <label className="flex min-w-0 flex-col gap-1 text-muted-foreground text-xs">
      {label}
      {children}
    </label>
  );
}

/**
 * The report's filters, as the lists have them: the year basis and years (the organization's
 * fiscal year start is named), the currency (those with counted gifts), the campaign, the donor's
 * tier and tag. Every change goes to the URL and back to page 1.
 */
function FilterBar({ s }: { s: ReportsSearch }) {
  const navigate = reportsRoute.useNavigate();
  const trpc = useTRPC();
  const options = useReportOptions();
  const uses = REPORT_USES[s.view];
  const wide = useMediaQuery(SM_UP);
  const tiers = useQuery({ ...trpc.donors.tiers.list.queryOptions(), enabled: uses.tier });
  const tags = useQuery(trpc.donors.tags.list.queryOptions());
  const set = (patch: Partial<ReportsSearch>) => navigate({ search: (p) => ({ ...p, page: 1, ...patch }) });
  const o = options.data;
  if (options.error) return <ReportError error={options.error} />;
  if (!o) return <Skeleton className="h-14" />;

  const currency = s.currency ?? o.defaultCurrency;
  const startMonth = startMonthOf(s.basis, o.fiscalYearStartMonth);
  const current = yearOfDay(o.today, startMonth);
  const firstAt = o.firstGiftAt[currency];
  const first = Math.max(
    REPORT_YEAR_MIN,
    firstAt === undefined ? current : yearOfDay(localDay(firstAt, o.timeZone), startMonth),
  );
  const years: number[] = [];
  for (let y = current; y >= first; y--) years.push(y);
  const label = (y: number) => reportYearLabel(y, startMonth);
  const toYear = s.toYear ?? current;
  const fromYear = s.fromYear ?? Math.max(first, toYear - 4);
  // The filters this report reads and the URL sets: those that narrow it (narrowingFilters) and its
  // scope's choices (calendar years are no filter).
  const scope = {
    currency: s.currency,
    fromYear: uses.years === "range" ? s.fromYear : undefined,
    toYear: uses.years === "range" ? s.toYear : undefined,
    year: uses.years === "one" ? s.year : undefined,
    basis: uses.basis && s.basis !== "calendar" ? s.basis : undefined,
  };
  const active = Object.values({ ...narrowingFilters(s), ...scope }).filter((v) => v !== undefined).length;

  const fields = (
    <>
      {uses.basis ? (
        <Field label="Years">
          <NativeSelect
            className="min-w-0"
            value={s.basis}
            onChange={(e) =>
              set({
                basis: e.target.value as ReportsSearch["basis"],
                fromYear: undefined,
                toYear: undefined,
                year: undefined,
              })
            }
          >
            <option value="calendar">Calendar years</option>
            <option value="fiscal">
              Fiscal years (from {MONTH_NAMES[o.fiscalYearStartMonth - 1] ?? "January"})
            </option>
          </NativeSelect>
        </Field>
      ) : null}
      {uses.years === "range" ? (
        <>
          <Field label="From">
            <NativeSelect
              className="min-w-0"
              value={fromYear}
              onChange={(e) => set({ fromYear: Number(e.target.value) })}
            >
              {years
                .filter((y) => y <= toYear)
                .map((y) => (
                  <option key={y} value={y}>
                    {label(y)}
                  </option>
                ))}
            </NativeSelect>
          </Field>
          <Field label="To">
            <NativeSelect
              className="min-w-0"
              value={toYear}
              onChange={(e) => set({ toYear: Number(e.target.value) })}
            >
              {years
                .filter((y) => y >= fromYear)
                .map((y) => (
                  <option key={y} value={y}>
                    {label(y)}
                  </option>
                ))}
            </NativeSelect>
          </Field>
        </>
      ) : null}
      {uses.years === "one" ? (
        <Field label="Year">
          <NativeSelect
            className="min-w-0"
            value={s.year ?? current}
            onChange={(e) => set({ year: Number(e.target.value) })}
          >
            {years.map((y) => (
              <option key={y} value={y}>
                {label(y)}
                {y === current ? " (so far)" : ""}
              </option>
            ))}
          </NativeSelect>
        </Field>
      ) : null}
      <Field label="Currency">
        <NativeSelect
          className="min-w-0"
          value={currency}
          onChange={(e) =>
            set({
              currency:
                e.target.value === o.defaultCurrency
                  ? undefined
                  : (e.target.value as ReportsSearch["currency"]),
              campaignId: undefined,
              compare: undefined,
            })
          }
        >
          {o.currencies.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {uses.campaign ? (
        <Field label={FILTER_LABELS.campaignId}>
          <CampaignCombobox
            label={FILTER_LABELS.campaignId}
            className="sm:w-56"
            value={s.campaignId}
            onChange={(c) => set({ campaignId: c?.id })}
            scope={{ currency }}
            none="All campaigns"
          />
        </Field>
      ) : null}
      {uses.tier ? (
        <Field label={FILTER_LABELS.tierId}>
          <NativeSelect
            className="min-w-0"
            value={s.tierId ?? ""}
            onChange={(e) => set({ tierId: e.target.value || undefined })}
          >
            <option value="">Any tier</option>
            {(tiers.data?.tiers ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </NativeSelect>
        </Field>
      ) : null}
      <Field label={FILTER_LABELS.tagId}>
        <NativeSelect
          className="min-w-0"
          value={s.tagId ?? ""}
          onChange={(e) => set({ tagId: e.target.value || undefined })}
        >
          <option value="">Any tag</option>
          {(tags.data ?? []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label={FILTER_LABELS.paymentMethod}>
        <NativeSelect
          className="min-w-0"
          value={s.paymentMethod ?? ""}
          onChange={(e) => set({ paymentMethod: e.target.value || undefined })}
        >
          <MethodOptions current={s.paymentMethod} />
        </NativeSelect>
      </Field>
      <Field label={FILTER_LABELS.frequency}>
        <NativeSelect
          className="min-w-0"
          value={s.frequency ?? ""}
          onChange={(e) => set({ frequency: (e.target.value || undefined) as ReportsSearch["frequency"] })}
        >
          <FrequencyOptions />
        </NativeSelect>
      </Field>
      <Field label={FILTER_LABELS.source}>
        <NativeSelect
          className="min-w-0"
          value={s.source ?? ""}
          onChange={(e) => set({ source: (e.target.value || undefined) as ReportsSearch["source"] })}
        >
          <SourceOptions />
        </NativeSelect>
      </Field>
    </>
  );
  // As the lists: the filters in a row, on a phone in a "Filters (N)" sheet (both while the width
  // is unknown, CSS showing the right one; src/components/data-table/data-table.tsx).
  return (
    <div className="flex flex-wrap items-end gap-2" role="group" aria-label="Filters">
      {wide !== false ? (
        <div className={cn("contents", wide === undefined && "max-sm:hidden")}>{fields}</div>
      ) : null}
      {wide !== true ? (
        <FilterSheet count={active} className={cn(wide === undefined && "sm:hidden")}>
          {fields}
        </FilterSheet>
      ) : null}
      {active > 0 ? (
        <Button
          variant="ghost"
          size="sm"
          className="h-9"
          onClick={() =>
            set(Object.fromEntries(FILTER_KEYS.map((k) => [k, undefined])) as Partial<ReportsSearch>)
          }
        >
          <X className="size-4" aria-hidden /> Clear {active} filter{active === 1 ? "" : "s"}
        </Button>
      ) : null}
    </div>
  );
}
