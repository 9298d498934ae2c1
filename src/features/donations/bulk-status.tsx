import { bulkSummary } from "@core/bulk";
import { type DonationStatus, needsReason as reasonNeeded } from "@core/status";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import { toast } from "sonner";
import { BulkProgress } from "~/components/data-table/bulk-bar";
import { useBulkRun } from "~/components/data-table/use-bulk-run";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { errorInfo, titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

/** "All N matching" as donations.matchingIds answers it. */
export interface MatchingDonations {
  ids: string[];
  allowedTransitions: string[];
}

/**
 * Bulk status change (decision 024): only targets every chosen donation may move to (the
 * intersection of their allowed transitions; for "all N matching" the server's, at the snapshot).
 * The ids go to donations.bulkUpdateStatus in batches with progress and Cancel; each gift is
 * decided as a single change would be, and the summary says what was skipped and why. Partial
 * refunds need an amount per gift, so they are done one at a time.
 */
export function BulkStatus({
  rows,
  matching,
  clear,
}: {
  rows: { id: string; allowedTransitions: string[] }[];
  matching: MatchingDonations | null;
  clear: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const bulk = useMutation(trpc.donations.bulkUpdateStatus.mutationOptions());
  const { progress, run, cancel } = useBulkRun();
  const [target, setTarget] = React.useState("");
  const [reason, setReason] = React.useState("");
  const allowed = matching
    ? matching.allowedTransitions
    : (rows[0]?.allowedTransitions ?? []).filter((t) => rows.every((r) => r.allowedTransitions.includes(t)));
  const targets = allowed.filter((t) => t !== "partially_refunded");
  // The server refuses these without a reason (core/status.ts, the one list of them).
  const needsReason = !!target && reasonNeeded(target);
  async function apply() {
    const ids = matching ? matching.ids : rows.map((r) => r.id);
    const status = target as DonationStatus;
    const done = await run(ids, (batch) =>
      bulk.mutateAsync({ ids: batch, status, reason: needsReason ? reason : undefined }),
    );
    const summary = bulkSummary(
      done.outcomes,
      `marked ${titleCase(target).toLowerCase()}`,
      done.error ? 0 : done.notDone,
    );
    if (done.error)
      toast.error(`${summary.text}. Stopped: ${errorInfo(done.error).message}`, { duration: 15_000 });
    else if (summary.skipped || done.notDone) toast.warning(summary.text, { duration: 15_000 });
    else toast.success(summary.text);
    setTarget("");
    setReason("");
    clear();
    await qc.invalidateQueries();
  }
  if (progress) return <BulkProgress progress={progress} onCancel={cancel} />;
  if (!targets.length)
    return (
      <span className="text-muted-foreground text-sm">No status change fits every selected donation.</span>
    );
  return (
    <>
      <NativeSelect
        aria-label="New status"
        className="h-8 bg-background"
        value={target}
        onChange={(e) => setTarget(e.target.value)}
      >
        <option value="">Set status…</option>
        {targets.map((t) => (
          <option key={t} value={t}>
            {titleCase(t)}
          </option>
        ))}
      </NativeSelect>
      {needsReason ? (
        <Input
          aria-label="Reason"
          placeholder="Reason"
          className="h-8 w-44"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      ) : null}
      <Button size="sm" disabled={!target || (needsReason && !reason.trim())} onClick={apply}>
        Apply
      </Button>
    </>
  );
}
