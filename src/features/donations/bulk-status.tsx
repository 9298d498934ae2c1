import { type DonationStatus, needsReason as reasonNeeded } from "@core/status";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { titleCase } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

/**
 * Bulk status change: only targets every selected donation may move to (the intersection of their
 * allowed transitions). Partial refunds need an amount per gift, so they are done one at a time.
 */
export function BulkStatus({
  rows,
  clear,
}: {
  rows: { id: string; allowedTransitions: string[] }[];
  clear: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const setStatus = useMutation(trpc.donations.updateStatus.mutationOptions());
  const [target, setTarget] = React.useState("");
  const [reason, setReason] = React.useState("");
  const [busy, setBusy] = React.useState(false);
  const targets = (rows[0]?.allowedTransitions ?? []).filter(
    (t) => t !== "partially_refunded" && rows.every((r) => r.allowedTransitions.includes(t)),
  );
  // The server refuses these without a reason (core/status.ts, the one list of them).
  const needsReason = !!target && reasonNeeded(target);
  async function apply() {
    setBusy(true);
    const results = await Promise.allSettled(
      rows.map((r) =>
        setStatus.mutateAsync({
          id: r.id,
          status: target as DonationStatus,
          reason: needsReason ? reason : undefined,
        }),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled").length;
    if (ok === rows.length) toast.success(`${ok} marked ${titleCase(target).toLowerCase()}`);
    else toast.error(`${ok} of ${rows.length} changed; the others changed meanwhile`);
    setBusy(false);
    setTarget("");
    setReason("");
    clear();
    await qc.invalidateQueries();
  }
  if (!targets.length)
    return <span className="text-muted-foreground text-sm">No status change fits every selected gift.</span>;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <select
        aria-label="New status"
        className="h-8 rounded-md border border-input bg-background px-2 text-sm"
        value={target}
        onChange={(e) => setTarget(e.target.value)}
      >
        <option value="">Set status…</option>
        {targets.map((t) => (
          <option key={t} value={t}>
            {titleCase(t)}
          </option>
        ))}
      </select>
      {needsReason ? (
        <Input
          aria-label="Reason"
          placeholder="Reason"
          className="h-8 w-44"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      ) : null}
      <Button size="sm" disabled={!target || busy || (needsReason && !reason.trim())} onClick={apply}>
        Apply
      </Button>
    </div>
  );
}
