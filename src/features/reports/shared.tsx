/**
 * What every report of /reports shares (issue 27): the options query, the filters as the API
 * takes them, the "Download CSV" button (for those holding the export right, as every export of
 * the portal), the definition line each report states, and the loading and error states.
 */
import { paymentMethodLabel } from "@core/labels";
import type { ReportView } from "@core/report-filters";
import { REPORT_DEFINITIONS } from "@core/reports";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { Download } from "lucide-react";
import { toast } from "sonner";
import { useCampaignNames } from "~/components/campaign-combobox";
import { Button } from "~/components/ui/button";
import { Skeleton } from "~/components/ui/skeleton";
import { frequencyFilterLabel, sourceLabel } from "~/features/donations/gift-filter-options";
import { useCan } from "~/lib/auth/can";
import { errorInfo } from "~/lib/format";
import { saveCsv } from "~/lib/save-csv";
import { useTRPC } from "~/lib/trpc";
import type { ReportsSearch } from "./search";

export const reportsRoute = getRouteApi("/_authed/reports/");

export function useReportOptions() {
  const trpc = useTRPC();
  return useQuery(trpc.reports.options.queryOptions());
}

/** The filters each report takes (the campaign comparison picks its campaigns itself). */
export const REPORT_USES: Record<
  ReportView,
  { years?: "range" | "one"; basis: boolean; campaign: boolean; tier: boolean }
> = {
  giving: { years: "range", basis: true, campaign: true, tier: true },
  retention: { years: "range", basis: true, campaign: true, tier: true },
  cohorts: { years: "range", basis: true, campaign: true, tier: true },
  pyramid: { years: "one", basis: true, campaign: true, tier: false },
  lapsed: { basis: true, campaign: true, tier: true },
  campaigns: { basis: false, campaign: false, tier: true },
};

/** The filter bar's field labels, which the filters line repeats. */
export const FILTER_LABELS = {
  campaignId: "Campaign",
  tierId: "Donor tier",
  tagId: "Donor tag",
  paymentMethod: "Payment method",
  frequency: "Frequency",
  source: "Source",
} as const;

/**
 * The filters on that narrow what a report counts, its scope (currency, years) aside: only those
 * the report takes (REPORT_USES), so one left in the URL from another report does not count.
 */
export function narrowingFilters(s: ReportsSearch) {
  const uses = REPORT_USES[s.view];
  return {
    campaignId: uses.campaign ? s.campaignId : undefined,
    tierId: uses.tier ? s.tierId : undefined,
    tagId: s.tagId,
    paymentMethod: s.paymentMethod,
    frequency: s.frequency,
    source: s.source,
  };
}

/**
 * A report's name in its CSV's file name, with what sets the file apart from the same report asked
 * otherwise: the currency, fiscal years, and "filtered" while a filter narrows it
 * ("report-giving-by-year-eur-fiscal-filtered"); the screen's filters line says which.
 */
export function reportFileWhat(s: ReportsSearch, what: string, currency: string) {
  const fiscal = REPORT_USES[s.view].basis && s.basis === "fiscal";
  const filtered = Object.values(narrowingFilters(s)).some((v) => v !== undefined);
  return ["report", what, currency.toLowerCase(), fiscal && "fiscal", filtered && "filtered"]
    .filter(Boolean)
    .join("-");
}

/**
 * The filters on, in the filter bar's words, under a report's scope line ("Donor tag: Volunteers ·
 * Frequency: Any recurring"): a screenshot or a printout then says what its figures count. Nothing
 * when no filter is on. Names come from the filter bar's own queries (cached).
 */
export function FiltersLine({ s }: { s: ReportsSearch }) {
  const trpc = useTRPC();
  const { campaignId, tierId } = narrowingFilters(s);
  const campaigns = useCampaignNames([campaignId]);
  const tiers = useQuery({ ...trpc.donors.tiers.list.queryOptions(), enabled: !!tierId });
  const tags = useQuery({ ...trpc.donors.tags.list.queryOptions(), enabled: !!s.tagId });
  // "…" while the names load; "unknown" for an id no longer in the organization (the filter bar's "Unknown campaign").
  const named = (rows: { id: string; name: string }[] | undefined, id: string) =>
    rows ? (rows.find((r) => r.id === id)?.name ?? "unknown") : "…";
  const campaignName = (id: string) => campaigns.byId.get(id)?.title ?? (campaigns.loading ? "…" : "unknown");
  const parts = [
    campaignId && `${FILTER_LABELS.campaignId}: ${campaignName(campaignId)}`,
    tierId && `${FILTER_LABELS.tierId}: ${named(tiers.data?.tiers, tierId)}`,
    s.tagId && `${FILTER_LABELS.tagId}: ${named(tags.data, s.tagId)}`,
    s.paymentMethod && `${FILTER_LABELS.paymentMethod}: ${paymentMethodLabel(s.paymentMethod)}`,
    s.frequency && `${FILTER_LABELS.frequency}: ${frequencyFilterLabel(s.frequency)}`,
    s.source && `${FILTER_LABELS.source}: ${sourceLabel(s.source)}`,
  ].filter((p): p is string => !!p);
  if (!parts.length) return null;
  return <p className="text-muted-foreground text-sm">Filtered: {parts.join(" · ")}.</p>;
}

/** The filters of the URL as every report procedure takes them. */
export function apiFilters(s: ReportsSearch) {
  return {
    basis: s.basis,
    currency: s.currency,
    campaignId: s.campaignId,
    tierId: s.tierId,
    tagId: s.tagId,
    ...giftFilters(s),
  };
}

/** The gifts' own filters of the URL (method, frequency, source), which every report takes. */
export function giftFilters(s: ReportsSearch) {
  return { paymentMethod: s.paymentMethod, frequency: s.frequency, source: s.source };
}

/** One line saying what the report counts (core/reports.ts REPORT_DEFINITIONS). */
export function Definition({ of }: { of: keyof typeof REPORT_DEFINITIONS }) {
  return <p className="text-muted-foreground text-sm">{REPORT_DEFINITIONS[of]}</p>;
}

/** A refused report says why: the field's message (zod's "Invalid input" names none), else the refusal's. */
export function ReportError({ error }: { error: unknown }) {
  const info = errorInfo(error);
  return (
    <p role="alert" className="text-destructive text-sm">
      {Object.values(info.fields)[0] ?? info.message}
    </p>
  );
}

export function ReportSkeleton() {
  return (
    <div className="flex flex-col gap-3" aria-busy="true">
      <Skeleton className="h-64" />
      <Skeleton className="h-40" />
    </div>
  );
}

/**
 * "Download CSV" for a report whose rows the page holds: the file is built in the browser from the
 * answer on screen (core/exports/reports.ts). Shown to those holding the export right.
 */
export function DownloadCsv({
  build,
  what,
  currency,
  disabled,
}: {
  /** The file's text, built when asked for. */
  build: () => string;
  /** The report's name in the file name ("giving-by-year"). */
  what: string;
  /** The currency of the rows (the report's answer's). */
  currency: string;
  disabled?: boolean;
}) {
  const s = reportsRoute.useSearch();
  const can = useCan();
  const trpc = useTRPC();
  const org = useQuery(trpc.organization.current.queryOptions());
  const options = useReportOptions();
  if (!can({ export: ["create"] })) return null;
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={disabled}
      onClick={() => {
        try {
          saveCsv(
            [build()],
            org.data?.slug ?? "almoner",
            reportFileWhat(s, what, currency),
            options.data?.timeZone ?? "UTC",
          );
          toast.success("CSV downloaded");
        } catch (e) {
          toast.error(errorInfo(e).message);
        }
      }}
    >
      <Download className="size-4" aria-hidden />
      <span className="max-sm:sr-only">Download CSV</span>
    </Button>
  );
}
