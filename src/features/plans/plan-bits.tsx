/**
 * Small pieces every plan screen shares (issue 24): the status badge with core/plans.ts's labels
 * and "€10.00 / month" as a donor would say it.
 */
import { PLAN_STATUS_LABELS, type PlanStatus } from "@core/plans";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/lib/utils";

const tones: Record<PlanStatus, string> = {
  active: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200",
  past_due: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-200",
  lapsed: "bg-orange-100 text-orange-900 dark:bg-orange-900/40 dark:text-orange-200",
  paused: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  cancelled: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
  completed: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-200",
};

export function PlanStatusBadge({ status, className }: { status: PlanStatus; className?: string }) {
  return (
    <Badge variant="secondary" className={cn("border-transparent font-medium", tones[status], className)}>
      {PLAN_STATUS_LABELS[status]}
    </Badge>
  );
}

export { daysLate, lateLabel, planAmount } from "./plan-words";

/** How a plan came in (recurring_plan_source_valid, worker/db/domain.ts). */
export const PLAN_SOURCE_LABELS: Readonly<Record<string, string>> = {
  manual: "Entered by hand",
  webhook: "Payment processor",
  migration: "Migrated",
  import: "Imported",
};
