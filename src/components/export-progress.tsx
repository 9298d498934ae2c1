import { Progress } from "~/components/ui/progress";

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
        Exporting… {progress.done.toLocaleString("en-US")}
        {progress.total ? ` of ${progress.total.toLocaleString("en-US")}` : ""} {noun}
      </span>
      <Progress value={progress.total ? (progress.done / progress.total) * 100 : 0} />
    </div>
  );
}
