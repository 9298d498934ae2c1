import { Progress } from "~/components/ui/progress";
import { formatCount } from "~/lib/format";

/** The running export's progress under a list's header (DESIGN §4 exports: progress and count). */
export function ExportProgress({
  progress,
  noun,
}: {
  progress: { done: number; total: number | null | undefined } | null;
  noun: string;
}) {
  if (!progress) return null;
  return (
    <div className="flex flex-col gap-1 text-sm" role="status" aria-live="polite">
      <span>
        Exporting… {formatCount(progress.done)}
        {progress.total ? ` of ${formatCount(progress.total)}` : ""} {noun}
      </span>
      <Progress value={progress.total ? (progress.done / progress.total) * 100 : 0} />
    </div>
  );
}
