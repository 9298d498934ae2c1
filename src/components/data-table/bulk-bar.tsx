import { Button } from "~/components/ui/button";
import { Progress } from "~/components/ui/progress";
import { formatCount } from "~/lib/format";
import type { BulkProgressState } from "./use-bulk-run";

/** How the bar words "Select all N matching" and "All N matching selected" (counts formatted). */
export interface MatchingLabels {
  offer: (total: string) => string;
  chosen: (count: string) => string;
}

const DEFAULT_MATCHING_LABELS: MatchingLabels = {
  offer: (total) => `Select all ${total} matching`,
  chosen: (count) => `All ${count} matching selected`,
};

/**
 * The bulk-actions bar of a list (decision 024): how many rows are chosen, "Select all N
 * matching" once the whole page is, "All N matching selected" after, the list's actions, Clear.
 */
export function BulkBar({
  count,
  total,
  offerMatching,
  matchingCount,
  selectingMatching,
  matchingError,
  onSelectMatching,
  onClear,
  running,
  matchingLabels = DEFAULT_MATCHING_LABELS,
  children,
}: {
  /** Rows chosen on the page. */
  count: number;
  /** Rows the filter matches (the list's total). */
  total: number | undefined;
  /** The whole page is chosen and the filter matches more: offer the rest. */
  offerMatching: boolean;
  /** The snapshot's size once "all matching" is chosen. */
  matchingCount: number | null;
  selectingMatching: boolean;
  matchingError: string | null;
  onSelectMatching: () => void;
  onClear: () => void;
  /** A run of the actions is sending batches: the selection stays as it is until it ends. */
  running: boolean;
  /** The offer's and the snapshot's words, where the snapshot is not every matching row. */
  matchingLabels?: MatchingLabels;
  children: React.ReactNode;
}) {
  return (
    <section
      className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border bg-muted/50 px-3 py-2 text-sm"
      aria-label="Bulk actions"
    >
      <span className="font-medium" aria-live="polite">
        {matchingCount !== null
          ? matchingLabels.chosen(formatCount(matchingCount))
          : `${formatCount(count)} selected`}
      </span>
      {offerMatching && matchingCount === null && total !== undefined ? (
        <Button
          variant="link"
          size="sm"
          className="h-auto px-0"
          disabled={selectingMatching || running}
          onClick={onSelectMatching}
        >
          {selectingMatching ? "Selecting…" : matchingLabels.offer(formatCount(total))}
        </Button>
      ) : null}
      {matchingError ? (
        <span className="basis-full text-destructive" role="alert">
          {matchingError}
        </span>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">{children}</div>
      <Button variant="ghost" size="sm" className="sm:ml-auto" disabled={running} onClick={onClear}>
        Clear
      </Button>
    </section>
  );
}

/** A bulk run in progress: "Updating 300 of 1,240…", a bar, and Cancel (between calls). */
export function BulkProgress({
  progress,
  verb = "Updating",
  onCancel,
}: {
  progress: BulkProgressState;
  verb?: string;
  onCancel: () => void;
}) {
  const label = `${verb} ${formatCount(progress.done)} of ${formatCount(progress.total)}…`;
  return (
    <div className="flex w-full min-w-0 flex-wrap items-center gap-2 sm:w-auto">
      <span role="status" className="tabular-nums">
        {progress.cancelling ? "Stopping after this batch…" : label}
      </span>
      <Progress value={progress.done} max={progress.total} aria-label={label} className="w-full sm:w-40" />
      <Button variant="outline" size="sm" disabled={progress.cancelling} onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
