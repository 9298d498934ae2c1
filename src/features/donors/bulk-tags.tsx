import { bulkSummary } from "@core/bulk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Tags } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { BulkProgress } from "~/components/data-table/bulk-bar";
import { ConfirmButton } from "~/components/data-table/confirm-button";
import { useBulkRun } from "~/components/data-table/use-bulk-run";
import { Button } from "~/components/ui/button";
import { NativeSelect } from "~/components/ui/native-select";
import { errorInfo, formatCount } from "~/lib/format";
import { useTRPC } from "~/lib/trpc";

type Mode = "add" | "remove" | "replace";

/** What the progress line and the summary say of each mode ("Tagging 300 of 1,240…"). */
const WORDS: Record<Mode, { ing: string; done: (tag: string) => string }> = {
  add: { ing: "Tagging", done: (tag) => `tagged ${tag}` },
  remove: { ing: "Untagging", done: (tag) => `no longer tagged ${tag}` },
  replace: { ing: "Retagging", done: (tag) => `now tagged only ${tag}` },
};

/**
 * Bulk tagging on the donors list (decision 024): the chosen donors — the page's, or "all N
 * matching" as donors.matchingIds snapshotted them — go to donors.tags.bulkAssign in batches with
 * progress and Cancel; each donor is decided as a single change would be, and one summary says
 * what was skipped and why. Only the chosen ids are ever sent.
 */
export function BulkTags({
  rows,
  matching,
  clear,
  tags,
}: {
  rows: { id: string }[];
  matching: { ids: string[] } | null;
  clear: () => void;
  tags: { id: string; name: string }[] | undefined;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const bulk = useMutation(trpc.donors.tags.bulkAssign.mutationOptions());
  const { progress, run, cancel } = useBulkRun();
  const [tagId, setTagId] = React.useState("");
  const [mode, setMode] = React.useState<Mode>("add");
  const running = !!progress;
  const chosen = matching ? matching.ids.length : rows.length;
  const tagName = tags?.find((t) => t.id === tagId)?.name ?? "";

  async function apply(next: Mode) {
    const ids = matching ? matching.ids : rows.map((r) => r.id);
    const name = tagName;
    setMode(next);
    const done = await run(ids, (batch) => bulk.mutateAsync({ ids: batch, tagIds: [tagId], mode: next }));
    const summary = bulkSummary(done.outcomes, WORDS[next].done(name), done.error ? 0 : done.notDone);
    if (done.error)
      toast.error(`${summary.text}. Stopped: ${errorInfo(done.error).message}`, { duration: 15_000 });
    else if (summary.skipped || done.notDone) toast.warning(summary.text, { duration: 15_000 });
    else toast.success(summary.text);
    setTagId("");
    clear();
    await qc.invalidateQueries({ queryKey: trpc.donors.pathKey() });
  }

  return (
    <>
      <NativeSelect
        aria-label="Tag to apply"
        className="h-8 bg-background"
        value={tagId}
        disabled={running}
        onChange={(e) => setTagId(e.target.value)}
      >
        <option value="">Choose a tag…</option>
        {tags?.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </NativeSelect>
      <Button size="sm" variant="outline" disabled={!tagId || running} onClick={() => void apply("add")}>
        <Tags className="size-4" /> Add tag
      </Button>
      <Button size="sm" variant="outline" disabled={!tagId || running} onClick={() => void apply("remove")}>
        Remove tag
      </Button>
      <ConfirmButton
        title={`Replace the tags of ${formatCount(chosen)} donor${chosen === 1 ? "" : "s"}?`}
        description={`Every other tag is removed from them; they keep only ${tagName}. This cannot be undone in one step.`}
        confirmLabel="Replace tags"
        disabled={!tagId || running}
        onConfirm={() => {
          // The run shows its own progress in the bar: the dialog closes at once.
          void apply("replace");
        }}
      >
        Replace tags
      </ConfirmButton>
      {progress ? <BulkProgress progress={progress} verb={WORDS[mode].ing} onCancel={cancel} /> : null}
    </>
  );
}
