/**
 * The donations list's bulk actions, loaded when a row is first selected (the list page itself
 * stays within its size budget, docs/performance.md): the status change (bulk-status.tsx) for
 * those who may change gifts, and "Send receipts" for those who may send them (issue 25).
 */
import { bulkSummary } from "@core/bulk";
import { RECEIPT_BULK_MAX } from "@core/receipts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Send } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { BulkProgress } from "~/components/data-table/bulk-bar";
import { useBulkRun } from "~/components/data-table/use-bulk-run";
import { Button } from "~/components/ui/button";
import { errorInfo } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";
import { BulkStatus, type MatchingDonations } from "./bulk-status";

export default function DonationBulkActions({
  rows,
  matching,
  clear,
  canUpdate,
  canSend,
}: {
  rows: { id: string; allowedTransitions: string[] }[];
  matching: MatchingDonations | null;
  clear: () => void;
  canUpdate: boolean;
  canSend: boolean;
}) {
  return (
    <>
      {canUpdate ? <BulkStatus rows={rows} matching={matching} clear={clear} /> : null}
      {canSend ? <BulkReceipts ids={matching ? matching.ids : rows.map((r) => r.id)} clear={clear} /> : null}
    </>
  );
}

/**
 * E-mails each chosen gift's receipt with the thank-you, a few gifts per call (each is a PDF),
 * with progress and Cancel; receipts already sent are skipped unless "again" is ticked. The
 * summary says how many went and why the others did not (no receipt, no e-mail address…).
 */
function BulkReceipts({ ids, clear }: { ids: string[]; clear: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const send = useMutation(trpc.receipts.sendMany.mutationOptions());
  const { progress, run, cancel } = useBulkRun();
  const [again, setAgain] = React.useState(false);
  async function apply() {
    const done = await run(ids, (batch) => send.mutateAsync({ ids: batch, resend: again }), RECEIPT_BULK_MAX);
    const summary = bulkSummary(done.outcomes, "receipts sent", done.error ? 0 : done.notDone);
    if (done.error)
      toast.error(`${summary.text}. Stopped: ${errorInfo(done.error).message}`, { duration: 15_000 });
    else if (summary.skipped || done.notDone) toast.warning(summary.text, { duration: 15_000 });
    else toast.success(summary.text);
    clear();
    await qc.invalidateQueries({ queryKey: trpc.receipts.pathKey() });
  }
  if (progress) return <BulkProgress progress={progress} verb="Sending" onCancel={cancel} />;
  // Set apart from the status change beside it: "Also those already sent" belongs to this button.
  return (
    <span className="flex flex-wrap items-center gap-2 sm:border-l sm:pl-3">
      <label className="flex items-center gap-1 whitespace-nowrap text-sm">
        <input type="checkbox" checked={again} onChange={(e) => setAgain(e.target.checked)} />
        Also those already sent
      </label>
      <Button size="sm" variant="outline" onClick={() => void apply()}>
        <Send aria-hidden className="size-4" /> Send receipts
      </Button>
    </span>
  );
}
