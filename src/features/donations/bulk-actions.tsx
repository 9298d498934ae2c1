/**
 * The donations list's bulk actions, loaded when a row is first selected (the list page itself
 * stays within its size budget, docs/performance.md): the status change (bulk-status.tsx) for
 * those who may change gifts, "Send receipts" for those who may send them (issue 25), and "Move
 * to trash" for those who may delete them, which first says how many receipts it voids (issue 53).
 */
import { BULK_MAX_IDS, bulkSummary } from "@core/bulk";
import { countOf } from "@core/labels";
import { RECEIPT_BULK_MAX } from "@core/receipts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Send, Trash2 } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
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
  canDelete = false,
  filters,
}: {
  rows: { id: string; allowedTransitions: string[] }[];
  matching: MatchingDonations | null;
  clear: () => void;
  canUpdate: boolean;
  canSend: boolean;
  canDelete?: boolean;
  /** The list's filters, which "all N matching" was chosen by (the trash's question counts by them). */
  filters?: Record<string, unknown>;
}) {
  const ids = matching ? matching.ids : rows.map((r) => r.id);
  return (
    <>
      {canUpdate ? <BulkStatus rows={rows} matching={matching} clear={clear} /> : null}
      {canSend ? <BulkReceipts ids={ids} clear={clear} /> : null}
      {canDelete ? (
        <BulkTrash ids={ids} byFilters={matching && filters ? filters : null} clear={clear} />
      ) : null}
    </>
  );
}

/** What the trash's question says about the receipts it voids, by their count. */
function trashWords(p: { receipted: number; numbers: string[] }, gifts: number) {
  if (!p.receipted)
    return "None of them has a receipt. They stop counting in totals and reports until restored.";
  const list = `${p.numbers.join(", ")}${p.receipted > p.numbers.length ? ", …" : ""}`;
  const which =
    gifts === 1
      ? `Its receipt ${list} will be voided`
      : p.receipted === gifts
        ? `Their ${countOf(p.receipted, "receipt", "receipts")} (${list}) will be voided`
        : `${countOf(p.receipted, "of them has a receipt", "of them have receipts")} (${list}), which will be voided`;
  const copies = p.receipted === 1 ? "the donor's copy is" : "the donors' copies are";
  return `${which}: ${copies} no longer valid. Restoring a donation issues a new receipt without e-mailing the donor.`;
}

/**
 * "Move to trash" on the selection: a real question first, saying how many of the gifts have a
 * receipt that the trash voids (issue 53, H4), then the ids in batches with progress and Cancel.
 */
function BulkTrash({
  ids,
  byFilters,
  clear,
}: {
  ids: string[];
  byFilters: Record<string, unknown> | null;
  clear: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [open, setOpen] = React.useState(false);
  const trash = useMutation(trpc.donations.bulkDelete.mutationOptions());
  const preview = useQuery({
    ...trpc.donations.trashPreview.queryOptions(
      (byFilters ? { matching: byFilters } : { ids: ids.slice(0, BULK_MAX_IDS) }) as never,
    ),
    enabled: open,
    staleTime: 0,
  });
  const { progress, run, cancel } = useBulkRun();
  async function apply() {
    const done = await run(ids, (batch) => trash.mutateAsync({ ids: batch }));
    const summary = bulkSummary(done.outcomes, "moved to the trash", done.error ? 0 : done.notDone);
    if (done.error)
      toast.error(`${summary.text}. Stopped: ${errorInfo(done.error).message}`, { duration: 15_000 });
    else if (summary.skipped || done.notDone) toast.warning(summary.text, { duration: 15_000 });
    else toast.success(summary.text);
    clear();
    await qc.invalidateQueries();
  }
  if (progress) return <BulkProgress progress={progress} verb="Moving" onCancel={cancel} />;
  const p = preview.data;
  const gifts = countOf(ids.length, "donation", "donations");
  return (
    <span className="flex flex-wrap items-center gap-2 sm:border-l sm:pl-3">
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden className="size-4" /> Move to trash
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Move ${gifts} to the trash?`}
        description={p ? trashWords(p, ids.length) : "Checking their receipts…"}
        confirmLabel={`Move ${gifts} to trash`}
        destructive
        canConfirm={!!p}
        onConfirm={() => {
          setOpen(false);
          void apply();
        }}
      />
    </span>
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
