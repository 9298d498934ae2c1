import { Badge } from "~/components/ui/badge";
import { titleCase } from "~/lib/format";
import { cn } from "~/lib/utils";

const tones: Record<string, string> = {
  active: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200",
  completed: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200",
  paused: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  pending: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  processing: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-200",
  draft: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  archived: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
  partially_refunded: "bg-violet-100 text-violet-900 dark:bg-violet-900/40 dark:text-violet-200",
  refunded: "bg-violet-100 text-violet-900 dark:bg-violet-900/40 dark:text-violet-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-200",
  disputed: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-200",
  cancelled: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
  abandoned: "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
};

export function StatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <Badge variant="secondary" className={cn("border-transparent font-medium", tones[status], className)}>
      {titleCase(status)}
    </Badge>
  );
}
