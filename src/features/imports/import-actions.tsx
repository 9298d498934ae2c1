/**
 * What can be done with an import once it ran, from its result and from the list of earlier ones:
 * download its refused rows as a CSV to fix and import again, and undo it (imports.rollbackPreview
 * in the confirmation, then imports.rollback until done, with its progress).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Download } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount } from "~/lib/format";
import { useTRPC, useTRPCClient } from "~/lib/trpc";
import { buildRejectedCsv, rejectedFileName } from "./logic";
import { RowsProgress } from "./parts";

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Whether the user may download refused rows: a donor export too (export:create), never while impersonating. */
export function useCanDownloadRejected() {
  const can = useCan();
  return can({ import: ["view"], export: ["create"] }) && !can.impersonating;
}

export function DownloadRejectedButton({
  imp,
  size,
  variant = "outline",
}: {
  imp: { id: string; fileName: string; counts: { rowsInvalid: number } };
  size?: "sm" | "default";
  variant?: "outline" | "default" | "secondary";
}) {
  const client = useTRPCClient();
  const [busy, setBusy] = React.useState(false);
  async function download() {
    setBusy(true);
    try {
      const { parts, rows } = await buildRejectedCsv((after) =>
        client.imports.rejections.query({ id: imp.id, after, limit: 1000 }),
      );
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob(parts, { type: "text/csv;charset=utf-8" }));
      a.download = rejectedFileName(imp.fileName);
      a.click();
      // Later, not at once: the browser may still be reading the Blob when click() returns.
      const href = a.href;
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
      toast.success(`Downloaded ${plural(rows, "refused row", "refused rows")}`);
    } catch (e) {
      toast.error(errorInfo(e).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button
      type="button"
      variant={variant}
      size={size}
      disabled={busy}
      aria-busy={busy || undefined}
      onClick={() => void download()}
      aria-label={`Download rejected rows of ${imp.fileName} (CSV)`}
    >
      {busy ? <Spinner /> : <Download className="size-4" />}
      Download rejected rows (CSV)
    </Button>
  );
}

interface Remaining {
  gifts: number;
  donors: number;
  campaigns: number;
}
const sum = (r: Remaining) => r.gifts + r.donors + r.campaigns;

/** The undo's confirmation: what goes, what blocks it; then its batches with progress. */
export function UndoImportDialog({
  imp,
  open,
  onOpenChange,
  onDone,
}: {
  imp: { id: string; fileName: string; status: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone?: () => void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const preview = useQuery({
    ...trpc.imports.rollbackPreview.queryOptions({ id: imp.id }),
    enabled: open,
    staleTime: 0,
    gcTime: 0,
  });
  const [progress, setProgress] = React.useState<{ start: Remaining; left: Remaining } | null>(null);
  React.useEffect(() => {
    if (open) setProgress(null);
  }, [open]);
  const p = preview.data;
  const blocked = !!p?.blockers.length;
  const continuing = imp.status === "rolling_back" || p?.import.status === "rolling_back";

  async function undo() {
    if (!p) return;
    const start = { gifts: p.gifts, donors: p.donors, campaigns: p.campaigns };
    setProgress({ start, left: start });
    let left = start;
    try {
      for (;;) {
        const step = await client.imports.rollback.mutate({ id: imp.id });
        left = step.remaining;
        setProgress({ start, left });
        if (step.done) break;
      }
    } finally {
      void qc.invalidateQueries();
    }
    const removed = {
      gifts: start.gifts - left.gifts,
      donors: start.donors - left.donors,
      campaigns: start.campaigns - left.campaigns,
    };
    const kept = sum(left)
      ? ` Kept because something else uses them: ${[
          left.donors ? plural(left.donors, "donor", "donors") : "",
          left.campaigns ? plural(left.campaigns, "campaign", "campaigns") : "",
          left.gifts ? plural(left.gifts, "donation", "donations") : "",
        ]
          .filter(Boolean)
          .join(", ")}.`
      : "";
    toast.success(
      `Import undone: removed ${plural(removed.gifts, "donation", "donations")}, ${plural(removed.donors, "donor", "donors")} and ${plural(removed.campaigns, "campaign", "campaigns")}.${kept}`,
    );
    onDone?.();
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={continuing ? `Finish undoing ${imp.fileName}?` : `Undo the import of ${imp.fileName}?`}
      description={
        continuing
          ? "An undo of this import started and did not finish. Continue removing what it created."
          : "Removes what this import created: its donations, the donors it created and the campaigns it created, with every total they counted in."
      }
      confirmLabel={continuing ? "Finish undo" : "Undo import"}
      destructive
      canConfirm={!!p && !blocked}
      onConfirm={undo}
    >
      <div className="grid gap-3 text-sm" data-testid="undo-preview">
        {preview.isPending ? (
          <p className="flex items-center gap-2" role="status">
            <Spinner /> Counting what the import created…
          </p>
        ) : preview.error ? (
          <p role="alert" className="text-destructive">
            {errorInfo(preview.error).message}
          </p>
        ) : p ? (
          <>
            <p data-testid="undo-counts">
              To remove: {plural(p.gifts, "donation", "donations")}, {plural(p.donors, "donor", "donors")} and{" "}
              {plural(p.campaigns, "campaign", "campaigns")}.
            </p>
            {blocked ? (
              <Alert variant="destructive">
                <AlertTitle className="line-clamp-none">This import cannot be undone</AlertTitle>
                <AlertDescription>
                  <p>Something now depends on what it created:</p>
                  <ul className="list-disc pl-5">
                    {p.blockers.map((b) => (
                      <li key={b}>{b}</li>
                    ))}
                  </ul>
                </AlertDescription>
              </Alert>
            ) : null}
            <p className="text-muted-foreground">
              Values the import filled in on donors you already had stay: they were those donors' details
              before anyone relied on them.
            </p>
            {progress ? (
              <div className="grid gap-1" role="status" aria-live="polite">
                <span>
                  Removing… {plural(progress.left.gifts, "donation", "donations")},{" "}
                  {plural(progress.left.donors, "donor", "donors")},{" "}
                  {plural(progress.left.campaigns, "campaign", "campaigns")} left
                </span>
                <RowsProgress
                  label="Undo progress"
                  done={sum(progress.start) - sum(progress.left)}
                  total={sum(progress.start)}
                />
              </div>
            ) : null}
          </>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
