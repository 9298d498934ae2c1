import * as React from "react";
import { toast } from "sonner";
import { Progress } from "~/components/ui/progress";
import { errorInfo, formatCount } from "~/lib/format";

type Done = { done: number; total: number | null | undefined };

/**
 * A list's CSV export run: `build` reports its progress through `show` and returns what the toast
 * says; an error is toasted instead. The progress is null when no export runs.
 */
export function useCsvExport(): [
  Done | null,
  (build: (show: (p: Done) => void) => Promise<string>) => Promise<void>,
] {
  const [progress, setProgress] = React.useState<Done | null>(null);
  async function run(build: (show: (p: Done) => void) => Promise<string>) {
    try {
      toast.success(await build(setProgress));
    } catch (e) {
      toast.error(errorInfo(e).message);
    } finally {
      setProgress(null);
    }
  }
  return [progress, run];
}

/** The running export's progress under a list's header (DESIGN §4 exports: progress and count). */
export function ExportProgress({ progress, noun }: { progress: Done | null; noun: string }) {
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
