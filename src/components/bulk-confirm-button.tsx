import { type BulkOutcome, bulkSummary } from "@core/bulk";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { BulkProgress } from "~/components/data-table/bulk-bar";
import { useConfirmReason } from "~/components/data-table/confirm-button";
import { useBulkRun } from "~/components/data-table/use-bulk-run";
import { Button } from "~/components/ui/button";
import { errorInfo } from "~/lib/format";

/**
 * A bulk action that asks first (decision 024): the bar's button opens a `ConfirmDialog` saying
 * how many rows it acts on; confirming closes it and runs the action over exactly `ids` through
 * `useBulkRun` (BULK_MAX_IDS per call, one call at a time), with `BulkProgress` and Cancel in the
 * button's place; the end is one `bulkSummary` toast. Focus goes to Cancel while it runs.
 *
 *   <BulkConfirmButton ids={matching ? matching.ids : rows.map((r) => r.id)}
 *     act={(batch) => archive.mutateAsync({ ids: batch })} running="Archiving" done="archived"
 *     title="Archive 1,240 campaigns?" description="…" confirmLabel="Archive 1,240 campaigns"
 *     onDone={async () => { clear(); await qc.invalidateQueries(); }}>Archive</BulkConfirmButton>
 */
export function BulkConfirmButton({
  ids,
  act,
  running,
  done,
  onDone,
  children,
  title,
  description,
  confirmLabel,
  destructive,
  disabled,
  hint,
  reasonLabel,
}: {
  /** The rows the user chose: the page's, or the "all N matching" snapshot's — never more. */
  ids: readonly string[];
  /** One call of the bulk procedure (at most BULK_MAX_IDS ids); `reason` when `reasonLabel` asks. */
  act: (batch: string[], reason: string | undefined) => Promise<BulkOutcome[]>;
  /** The progress's verb: "Archiving" → "Archiving 300 of 1,240…". */
  running: string;
  /** The summary's verb: "archived" → "1,230 archived, 10 skipped: …". */
  done: string;
  /** After the run (clear the selection, refetch). */
  onDone: () => Promise<unknown> | unknown;
  children: React.ReactNode;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  disabled?: boolean;
  /** The dialog's confirm button is red (a revoke); the bar's button stays quiet. */
  destructive?: boolean;
  /** The button's tooltip (e.g. why it is disabled). */
  hint?: string;
  /** Asks for a reason (required, 3–500 characters), sent with every call; it is audited. */
  reasonLabel?: string;
}) {
  const { progress, run, cancel } = useBulkRun();
  const [open, setOpen] = React.useState(false);
  const reason = useConfirmReason(reasonLabel);
  const trigger = React.useRef<HTMLButtonElement>(null);
  const progressBox = React.useRef<HTMLDivElement>(null);
  // Where the closing dialog puts focus: Cancel while the run goes on, else the button.
  const returnFocus = React.useMemo(
    () => ({
      get current(): HTMLElement | null {
        return progressBox.current?.querySelector<HTMLElement>("button:not(:disabled)") ?? trigger.current;
      },
    }),
    [],
  );

  async function start(why: string | undefined) {
    const result = await run(ids, (batch) => act(batch, why));
    const summary = bulkSummary(result.outcomes, done, result.error ? 0 : result.notDone);
    if (result.error)
      toast.error(`${summary.text}. Stopped: ${errorInfo(result.error).message}`, { duration: 15_000 });
    else if (summary.skipped || result.notDone) toast.warning(summary.text, { duration: 15_000 });
    else toast.success(summary.text);
    await onDone();
  }

  return (
    <>
      {progress ? (
        <div ref={progressBox} className="contents">
          <BulkProgress progress={progress} verb={running} onCancel={cancel} />
        </div>
      ) : (
        <Button
          ref={trigger}
          type="button"
          size="sm"
          variant="outline"
          disabled={disabled || ids.length === 0}
          title={hint}
          aria-haspopup="dialog"
          onClick={() => {
            reason.reset();
            setOpen(true);
          }}
        >
          {children}
        </Button>
      )}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={title}
        description={description}
        confirmLabel={confirmLabel}
        destructive={destructive}
        returnFocusRef={returnFocus}
        canConfirm={reason.ok}
        // The dialog closes at once; the run shows its progress in the bar, where Cancel is.
        onConfirm={() => void start(reasonLabel ? reason.text : undefined)}
      >
        {reason.field}
      </ConfirmDialog>
    </>
  );
}
