/**
 * "Year-end statements" on the donors list (issue 25): e-mail every donor with receipted gifts in
 * a year their statement, in steps of a few donors (receipts.stepStatements), with a progress bar,
 * statements per second and the time left. Closing the dialog or losing the connection pauses the
 * run; starting the same year again resumes it where it stopped (worker/receipts/statements.ts).
 * Before it goes (issue 53, M13) the dialog says how many donors it e-mails, warns while the year
 * is not over in the organization's zone, and sends a test to the person asking.
 */

import { countOf } from "@core/labels";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FileStack } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "~/components/ui/dialog";
import { Field } from "~/components/ui/form-field";
import { NativeSelect } from "~/components/ui/native-select";
import { Progress } from "~/components/ui/progress";
import { errorInfo, formatCount, formatDate } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";

interface Run {
  id: string;
  label: string;
  total: number;
  sent: number;
  skipped: number;
  finishedAt: number | null;
}

function timeLeft(seconds: number | null) {
  if (seconds === null || !Number.isFinite(seconds)) return "";
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}

export function StatementRunDialog() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const tz = useTimeZone();
  const [open, setOpen] = React.useState(false);
  const lastYear = new Date().getFullYear() - 1;
  const [year, setYear] = React.useState(String(lastYear));
  const [basis, setBasis] = React.useState<"calendar" | "fiscal">("calendar");
  const [run, setRun] = React.useState<Run | null>(null);
  const [rate, setRate] = React.useState<{ perSecond: number; secondsLeft: number | null } | null>(null);
  const stop = React.useRef(false);
  const [running, setRunning] = React.useState(false);
  const runs = useQuery({ ...trpc.receipts.statementRuns.queryOptions(), enabled: open });
  const start = useMutation(trpc.receipts.startStatements.mutationOptions());
  const preview = useQuery({
    ...trpc.receipts.statementPreview.queryOptions({ year: Number(year), basis }),
    enabled: open,
  });
  const test = useMutation(
    trpc.receipts.testStatement.mutationOptions({
      onSuccess: (t) => toast.success(`Test sent to ${t.sentTo}: ${t.donorName}'s ${t.label} statement`),
      onError: (e) => toast.error(errorInfo(e).message),
    }),
  );
  const step = useMutation(trpc.receipts.stepStatements.mutationOptions());
  const years = Array.from({ length: 6 }, (_, i) => lastYear + 1 - i);

  async function go(from?: Run) {
    stop.current = false;
    setRunning(true);
    try {
      let r: Run = from ?? (await start.mutateAsync({ year: Number(year), basis }));
      setRun(r);
      const began = performance.now();
      const doneAtStart = r.sent + r.skipped;
      while (!r.finishedAt && !stop.current) {
        r = await step.mutateAsync({ runId: r.id });
        setRun(r);
        const done = r.sent + r.skipped - doneAtStart;
        const seconds = (performance.now() - began) / 1000;
        const perSecond = seconds > 0 ? done / seconds : 0;
        setRate({
          perSecond,
          secondsLeft: perSecond > 0 ? (r.total - r.sent - r.skipped) / perSecond : null,
        });
      }
      if (r.finishedAt)
        toast.success(
          `${r.label}: ${countOf(r.sent, "statement", "statements")} sent${r.skipped ? `, ${countOf(r.skipped, "donor", "donors")} without an e-mail address skipped` : ""}`,
        );
    } catch (error) {
      toast.error(errorInfo(error).message);
    } finally {
      setRunning(false);
      await qc.invalidateQueries({ queryKey: trpc.receipts.statementRuns.queryKey() });
    }
  }

  /** Another year or period chosen (or a finished run left behind): its progress no longer applies. */
  function forget() {
    setRun(null);
    setRate(null);
  }

  const fiscalYearStartMonth = runs.data?.fiscalYearStartMonth ?? 1;
  const p = preview.data;
  const unfinished = (runs.data?.runs ?? []).filter((r) => !r.finishedAt && r.id !== run?.id);
  const done = run ? run.sent + run.skipped : 0;
  // The chosen year went out before: say so before it goes out again.
  const sentBefore = (runs.data?.runs ?? []).find(
    (r) => r.finishedAt && r.year === Number(year) && r.basis === basis && r.sent > 0,
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) stop.current = true;
        // Opened again after a run finished: a new run may be chosen (the last one is in the toast).
        else if (run?.finishedAt) forget();
        setOpen(o);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <FileStack aria-hidden className="size-4" /> Year-end statements
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Year-end statements</DialogTitle>
          <DialogDescription>
            E-mail every donor with donations in the year their statement as a PDF: Almoner's receipts and
            imported donations. Donors without an e-mail address are skipped; their statements download from
            their page.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-4">
          <div className="flex flex-wrap gap-4">
            <Field label="Year">
              {(p) => (
                <NativeSelect
                  {...p}
                  className="bg-background"
                  value={year}
                  disabled={running}
                  onChange={(e) => {
                    setYear(e.target.value);
                    forget();
                  }}
                >
                  {years.map((y) => (
                    <option key={y} value={y}>
                      {y}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
            {fiscalYearStartMonth !== 1 ? (
              <Field label="Period">
                {(p) => (
                  <NativeSelect
                    {...p}
                    className="bg-background"
                    value={basis}
                    disabled={running}
                    onChange={(e) => {
                      setBasis(e.target.value as "calendar" | "fiscal");
                      forget();
                    }}
                  >
                    <option value="calendar">Calendar year</option>
                    <option value="fiscal">Fiscal year starting that year</option>
                  </NativeSelect>
                )}
              </Field>
            ) : null}
          </div>
          {run ? (
            <div className="flex flex-col gap-2 text-sm" aria-live="polite">
              <Progress
                aria-label={`Statements for ${run.label}`}
                value={Math.min(done, run.total)}
                max={Math.max(run.total, 1)}
                getValueLabel={(v, max) => `${formatCount(v)} of ${formatCount(max)}`}
              />
              <p className="text-muted-foreground" data-testid="statement-progress">
                {run.label}: {formatCount(done)} of {countOf(run.total, "donor", "donors")} ·{" "}
                {formatCount(run.sent)} sent · {formatCount(run.skipped)} skipped
                {running && rate && rate.perSecond > 0
                  ? ` · ${rate.perSecond.toFixed(1)} statements/s · ${timeLeft(rate.secondsLeft)}`
                  : ""}
                {run.finishedAt ? " · finished" : ""}
              </p>
            </div>
          ) : null}
          {!run && p ? (
            <div className="flex flex-col gap-2 text-sm" data-testid="statement-preview">
              <p>
                {p.donors
                  ? `${countOf(p.reachable, "donor", "donors")} will get their ${p.label} statement by e-mail.`
                  : `No donor has a donation to put on a ${p.label} statement.`}
                {p.donors - p.reachable > 0
                  ? ` ${countOf(p.donors - p.reachable, "donor has", "donors have")} no e-mail address (or was anonymized) and ${p.donors - p.reachable === 1 ? "is" : "are"} skipped; their statements download from their page.`
                  : ""}
              </p>
              {p.imported ? (
                <p className="text-muted-foreground">
                  {countOf(p.imported, "imported donation is", "imported donations are")} listed, marked
                  “Previous system”: your previous system receipted them, so they carry no receipt number of
                  ours.
                </p>
              ) : null}
              {!p.over ? (
                <p className="rounded-md border border-amber-600/40 bg-amber-500/10 p-2" role="note">
                  {p.label} is not over yet: it ends on {formatDate(p.periodEnd - 1, tz)} in your
                  organization's time zone. Donations made after today will not be on these statements.
                </p>
              ) : null}
            </div>
          ) : null}
          {!run && sentBefore ? (
            <p className="rounded-md border border-amber-600/40 bg-amber-500/10 p-2 text-sm" role="note">
              {sentBefore.label} statements were already sent on{" "}
              {formatDate(sentBefore.finishedAt as number, tz)} to{" "}
              {countOf(sentBefore.sent, "donor", "donors")}. Sending them again e-mails every one of them
              again.
            </p>
          ) : null}
          {!running && unfinished.length ? (
            <div className="flex flex-col gap-2 text-sm">
              {unfinished.map((r) => (
                <div
                  key={r.id}
                  className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2"
                >
                  <span>
                    {r.label}: stopped after {formatCount(r.sent + r.skipped)} of{" "}
                    {countOf(r.total, "donor", "donors")}
                  </span>
                  <Button size="sm" variant="outline" onClick={() => void go(r)}>
                    Resume
                  </Button>
                </div>
              ))}
            </div>
          ) : null}
        </div>
        <DialogFooter>
          {/* Where Pause was, a finished run offers Done, never a second run of the same year: a
              click meant for Pause that lands just after the end must not e-mail everyone again. */}
          {running ? (
            <Button variant="outline" onClick={() => (stop.current = true)}>
              Pause
            </Button>
          ) : run?.finishedAt ? (
            <DialogClose asChild>
              <Button variant="outline">Done</Button>
            </DialogClose>
          ) : run ? (
            <Button onClick={() => void go(run)}>Resume</Button>
          ) : (
            <>
              <Button
                variant="outline"
                disabled={!p?.donors || test.isPending}
                onClick={() => test.mutate({ year: Number(year), basis })}
              >
                Send a test to me
              </Button>
              <Button disabled={!p?.reachable} onClick={() => void go()}>
                {p?.reachable ? `Send ${countOf(p.reachable, "statement", "statements")}` : "Send statements"}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
