/**
 * Step 5: the import running (progress, speed, time left, live counts, Stop after this batch), and
 * its result: what it did, the refused rows to download, the records to view, Undo.
 */
import type { ImportKind } from "@core/import/fields";
import { type ImportLevel, resultWords } from "@core/import/outcome";
import { Link } from "@tanstack/react-router";
import { CircleCheck, CircleX, TriangleAlert } from "lucide-react";
import * as React from "react";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { useCan } from "~/lib/auth/can";
import { formatCount } from "~/lib/format";
import { DownloadRejectedButton, UndoImportDialog, useCanDownloadRejected } from "./import-actions";
import { timeLeft } from "./logic";
import { Counts, RowsProgress } from "./parts";
import type { PresentedImport, RunState } from "./use-import-run";

function countItems(kind: ImportKind, imp: PresentedImport) {
  const c = imp.counts;
  return [
    ...(kind === "donations"
      ? [{ label: "Donations created", value: c.giftsCreated, testId: "count-gifts" }]
      : []),
    { label: "Donors created", value: c.donorsCreated, testId: "count-donors-created" },
    { label: "Donors updated", value: c.donorsUpdated, testId: "count-donors-updated" },
    { label: "Donors matched", value: c.donorsMatched, testId: "count-donors-matched" },
    ...(kind === "donations"
      ? [{ label: "Campaigns created", value: c.campaignsCreated, testId: "count-campaigns" }]
      : []),
    { label: "Rows skipped", value: c.rowsSkipped, testId: "count-skipped" },
    { label: "Rows refused", value: c.rowsInvalid, testId: "count-refused" },
  ];
}

export function RunStep({
  kind,
  run,
  onStop,
  onContinue,
  onAnother,
}: {
  kind: ImportKind;
  run: RunState;
  onStop: () => void;
  onContinue: () => void;
  onAnother: () => void;
}) {
  const { phase, imp, progress } = run;
  const busy = phase === "starting" || phase === "sending" || phase === "stopping" || phase === "finishing";
  return (
    <div className="flex flex-col gap-5">
      {phase === "starting" ? (
        <p role="status" className="flex items-center gap-2 text-sm">
          <Spinner /> Starting the import…
        </p>
      ) : null}
      {busy && progress ? (
        <div className="flex flex-col gap-2">
          <p className="text-sm tabular-nums" role="status" aria-live="polite" data-testid="import-progress">
            {formatCount(progress.done)} of {formatCount(progress.total)} rows
            {progress.rowsPerSecond > 0 ? ` · ${formatCount(Math.round(progress.rowsPerSecond))} rows/s` : ""}
            {progress.secondsLeft !== null && progress.done < progress.total
              ? ` · ${timeLeft(progress.secondsLeft)}`
              : ""}
            {phase === "finishing" ? " · finishing…" : ""}
          </p>
          <RowsProgress label="Rows imported" done={progress.done} total={progress.total} />
        </div>
      ) : null}
      {busy && phase !== "starting" ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="outline" onClick={onStop} disabled={phase !== "sending"}>
            {phase === "stopping" ? (
              <>
                <Spinner /> Stopping after this batch…
              </>
            ) : (
              "Stop after this batch"
            )}
          </Button>
          <span className="text-muted-foreground text-sm">
            Each batch lands whole. A stopped import can be resumed: choose the same file again.
          </span>
        </div>
      ) : null}

      {phase === "stopped" && imp ? (
        <Alert variant="warning">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle className="line-clamp-none">
            Import stopped at row {formatCount(imp.nextRow)}
          </AlertTitle>
          <AlertDescription>
            <p>
              {formatCount(imp.rowsDone)} of {formatCount(imp.totalRows)} rows are done. Continue now, or
              later by choosing the same file on this page: it resumes where it stopped and creates nothing
              twice.
            </p>
            <Button type="button" className="mt-2" onClick={onContinue}>
              Continue importing
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}
      {phase === "failed" ? (
        <Alert variant="destructive">
          <AlertTitle className="line-clamp-none">The import stopped on an error</AlertTitle>
          <AlertDescription>
            <p>{run.error}</p>
            {imp ? (
              <>
                <p>
                  {formatCount(imp.rowsDone)} of {formatCount(imp.totalRows)} rows are done; nothing of the
                  batch that failed was written.
                </p>
                <Button type="button" className="mt-2" onClick={onContinue}>
                  Continue importing
                </Button>
              </>
            ) : null}
          </AlertDescription>
        </Alert>
      ) : null}

      {phase === "done" && imp ? <ImportResult kind={kind} imp={imp} onAnother={onAnother} /> : null}
      {imp && phase !== "done" ? <Counts items={countItems(kind, imp)} /> : null}
      {(phase === "stopped" || phase === "failed") && imp ? (
        <ResultActions kind={kind} imp={imp} onAnother={onAnother} onUndone={onAnother} />
      ) : null}
    </div>
  );
}

/** The headline's icon follows what came of the rows: a green check only when none was refused. */
const LEVEL_ICON: Record<ImportLevel, { Icon: typeof CircleCheck; className: string }> = {
  all: { Icon: CircleCheck, className: "text-success" },
  some: { Icon: TriangleAlert, className: "text-warning" },
  most: { Icon: CircleX, className: "text-destructive" },
};

function ImportResult({
  kind,
  imp,
  onAnother,
}: {
  kind: ImportKind;
  imp: PresentedImport;
  onAnother: () => void;
}) {
  const words = resultWords(imp.counts, imp.rowsDone, imp.fileName);
  const { Icon, className } = LEVEL_ICON[words.level];
  return (
    <section aria-labelledby="import-result" className="flex flex-col gap-4">
      <h3 id="import-result" className="flex items-start gap-2 font-semibold" data-level={words.level}>
        <Icon className={`mt-0.5 size-5 shrink-0 ${className}`} aria-hidden="true" />
        <span role="status" className="min-w-0 break-words" data-testid="import-result-title">
          {words.title}
        </span>
      </h3>
      <Counts items={countItems(kind, imp)} />
      {imp.counts.rowsSkipped ? (
        <p className="text-muted-foreground text-sm">
          Skipped rows were imported before (by this file or a donation ID the organization already has) or
          matched a donor left unchanged.
        </p>
      ) : null}
      <ResultActions kind={kind} imp={imp} onAnother={onAnother} />
    </section>
  );
}

function ResultActions({
  kind,
  imp,
  onAnother,
  onUndone,
}: {
  kind: ImportKind;
  imp: PresentedImport;
  onAnother: () => void;
  /** After an undo (a stopped import: there is nothing left to continue). */
  onUndone?: () => void;
}) {
  const can = useCan();
  const mayDownload = useCanDownloadRejected();
  const [undo, setUndo] = React.useState(false);
  const [undone, setUndone] = React.useState(false);
  return (
    <div className="flex flex-col gap-3">
      {imp.counts.rowsInvalid > 0 ? (
        <p className="text-sm">
          {formatCount(imp.counts.rowsInvalid)} {imp.counts.rowsInvalid === 1 ? "row was" : "rows were"}{" "}
          refused.
          {mayDownload
            ? " The download holds them in the file's own columns, with their row number and the reason in the last two; fix them there and import that file."
            : ""}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {mayDownload && imp.counts.rowsInvalid > 0 ? (
          <DownloadRejectedButton imp={imp} variant="default" />
        ) : null}
        {!undone ? (
          kind === "donations" ? (
            <Button asChild variant="outline">
              <Link to="/donations" search={{ importId: imp.id } as never}>
                View the imported donations
              </Link>
            </Button>
          ) : (
            <Button asChild variant="outline">
              <Link to="/donors" search={{ importId: imp.id } as never}>
                View the donors it created
              </Link>
            </Button>
          )
        ) : null}
        {can({ import: ["delete"] }) && !undone ? (
          <Button type="button" variant="outline" onClick={() => setUndo(true)}>
            Undo this import
          </Button>
        ) : null}
        <Button type="button" variant="ghost" onClick={onAnother}>
          Import another file
        </Button>
      </div>
      {undone ? (
        <p role="status" className="text-sm">
          This import was undone: the donations, donors and campaigns it created are gone.
        </p>
      ) : null}
      <UndoImportDialog
        imp={imp}
        open={undo}
        onOpenChange={setUndo}
        onDone={() => {
          setUndone(true);
          onUndone?.();
        }}
      />
    </div>
  );
}
