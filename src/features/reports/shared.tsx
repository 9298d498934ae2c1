/**
 * What every report of /reports shares (issue 27): the options query, the filters as the API
 * takes them, the "Download CSV" button (for those holding the export right, as every export of
 * the portal), the definition line each report states, and the loading and error states.
 */
import { exportFileName } from "@core/csv";
import { REPORT_DEFINITIONS } from "@core/reports";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { Download } from "lucide-react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Skeleton } from "~/components/ui/skeleton";
import { useCan } from "~/lib/auth/can";
import { errorInfo } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import type { ReportsSearch } from "./search";

export const reportsRoute = getRouteApi("/_authed/reports/");

export const selectClass = "h-9 min-w-0 rounded-md border border-input bg-transparent px-2 text-sm";

export function useReportOptions() {
  const trpc = useTRPC();
  return useQuery(trpc.reports.options.queryOptions());
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

/** Saves `parts` as a CSV named for the organization, the report and the minute. */
export function saveCsv(parts: BlobPart[], slug: string, what: string, timeZone: string) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob(parts, { type: "text/csv;charset=utf-8" }));
  a.download = exportFileName(slug, what, Date.now(), timeZone);
  a.click();
  URL.revokeObjectURL(a.href);
}

/**
 * "Download CSV" for a report whose rows the page holds: the file is built in the browser from the
 * answer on screen (core/exports/reports.ts). Shown to those holding the export right.
 */
export function DownloadCsv({
  build,
  what,
  disabled,
}: {
  /** The file's text, built when asked for. */
  build: () => string;
  /** The report's name in the file name ("giving-by-year"). */
  what: string;
  disabled?: boolean;
}) {
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
          saveCsv([build()], org.data?.slug ?? "almoner", `report-${what}`, options.data?.timeZone ?? "UTC");
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
