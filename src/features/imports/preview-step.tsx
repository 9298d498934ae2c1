/**
 * Step 4: the first rows as the Worker will store them (imports.check: the dry run, writing
 * nothing), then the same dry run over every batch of the file with a progress bar, Cancel and the
 * tally (core/import/runner.ts CheckTally). It runs by itself, and the import waits for it (issue
 * 55): the button counts what it found. Rows matched to a donor by name + postal code or old ID are
 * listed, each with a way to give it a donor of its own instead (options.newDonorRows).
 */
import { IMPORT_BATCH_ROWS } from "@core/import/batch";
import type { ImportKind, ImportOptions, ImportOutcome } from "@core/import/fields";
import { rowBatches } from "@core/import/read";
import { type CheckedMatch, CheckTally } from "@core/import/runner";
import { Link } from "@tanstack/react-router";
import * as React from "react";
import { StatusBadge } from "~/components/status-badge";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Skeleton } from "~/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { RouterOutputs } from "~/lib/api-types";
import { errorInfo, formatCount, formatDate, formatMoney } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPCClient } from "~/lib/trpc";
import type { LoadedFile } from "./file";
import type { Mapping } from "./logic";
import { ByWidth, Counts, RowsProgress, type Tone, ToneBadge } from "./parts";

type Checked = RouterOutputs["imports"]["check"];
type CheckedRow = Checked["rows"][number];

const OUTCOME: Record<ImportKind, Record<ImportOutcome, string>> = {
  donations: { new: "New donation", matched: "Matched", skipped: "Skipped", invalid: "Refused" },
  donors: { new: "New donor", matched: "Matches a donor", skipped: "Skipped", invalid: "Refused" },
};
const OUTCOME_TONE: Record<ImportOutcome, Tone> = {
  new: "success",
  matched: "neutral",
  skipped: "warning",
  invalid: "danger",
};

/** The donor as stored, else who the row's cells name (a refused row has no stored donor). */
function donorName(r: CheckedRow) {
  const d = r.stored?.donor;
  const name = d ? [d.firstName, d.lastName].filter(Boolean).join(" ") || d.company : null;
  return name || (d?.email ? null : r.label) || null;
}

const MATCHED_BY = {
  email: "e-mail",
  name_postal_code: "name and postal code",
  external_id: "old ID",
} as const;

/** Whose gift it is: a donor the import creates, the same donor as an earlier row, or one the organization has. */
function giftDonorNote(d: CheckedRow["donor"]) {
  if (!d) return null;
  if (d.isNew) return "new donor";
  if (d.sameAsRow) return `same donor as row ${d.sameAsRow}`;
  return `existing donor${d.matchedBy ? ` (by ${MATCHED_BY[d.matchedBy]})` : ""}`;
}

function Outcome({ kind, r }: { kind: ImportKind; r: CheckedRow }) {
  const donorNote = kind === "donations" && r.outcome === "new" ? giftDonorNote(r.donor) : null;
  const text = r.reason ?? r.note ?? donorNote;
  return (
    <span className="flex min-w-0 flex-col items-start gap-0.5">
      <ToneBadge tone={OUTCOME_TONE[r.outcome]}>{OUTCOME[kind][r.outcome]}</ToneBadge>
      {text ? <span className="whitespace-normal text-muted-foreground text-xs">{text}</span> : null}
    </span>
  );
}

function Campaign({ r }: { r: CheckedRow }) {
  const title = r.campaign?.title ?? r.stored?.gift?.campaign;
  if (!title) return <span className="text-muted-foreground">General</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {title}
      {r.campaign?.isNew ? <Badge variant="outline">new</Badge> : null}
    </span>
  );
}

function PreviewTable({ kind, rows }: { kind: ImportKind; rows: CheckedRow[] }) {
  const tz = useTimeZone();
  const gift = (r: CheckedRow) => r.stored?.gift ?? null;
  // The old system's "Date Added", when the file has the column (issue 53, M12).
  const since = kind === "donors" && rows.some((r) => r.stored?.donor?.since);
  return (
    <ByWidth
      wide={() => (
        <Table containerClassName="rounded-md border" aria-label="The first rows as they will be stored">
          <TableHeader>
            <TableRow>
              <TableHead className="w-14">Row</TableHead>
              <TableHead>Donor</TableHead>
              {kind === "donations" ? (
                <>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead>Date</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Campaign</TableHead>
                </>
              ) : (
                <>
                  <TableHead>Place</TableHead>
                  {since ? <TableHead>Donor since</TableHead> : null}
                </>
              )}
              <TableHead>Outcome</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => {
              const g = gift(r);
              const d = r.stored?.donor;
              return (
                <TableRow key={r.row} data-row={r.row}>
                  <TableCell className="text-muted-foreground tabular-nums">{r.row}</TableCell>
                  <TableCell className="min-w-48 max-w-64 whitespace-normal">
                    <span className="block font-medium">{donorName(r) ?? "—"}</span>
                    {d?.email ? (
                      <span className="block break-all text-muted-foreground text-xs">{d.email}</span>
                    ) : null}
                  </TableCell>
                  {kind === "donations" ? (
                    <>
                      <TableCell className="text-right tabular-nums">
                        {g ? formatMoney(g.amountMinor, g.currency) : "—"}
                      </TableCell>
                      <TableCell>{g ? formatDate(g.donatedAt, tz) : "—"}</TableCell>
                      <TableCell>{g ? <StatusBadge status={g.status} /> : "—"}</TableCell>
                      <TableCell className="max-w-48 whitespace-normal">
                        {g || r.campaign ? <Campaign r={r} /> : "—"}
                      </TableCell>
                    </>
                  ) : (
                    <>
                      <TableCell className="max-w-48 whitespace-normal">
                        {[d?.city, d?.region, d?.country].filter(Boolean).join(", ") || "—"}
                      </TableCell>
                      {since ? <TableCell>{d?.since ? formatDate(d.since, tz) : "—"}</TableCell> : null}
                    </>
                  )}
                  <TableCell className="max-w-72 whitespace-normal">
                    <Outcome kind={kind} r={r} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      narrow={() => (
        <ul className="flex flex-col gap-2" aria-label="The first rows as they will be stored">
          {rows.map((r) => {
            const g = gift(r);
            const d = r.stored?.donor;
            return (
              <li
                key={r.row}
                data-row={r.row}
                className="flex flex-col gap-1.5 rounded-md border p-3 text-sm"
              >
                {d || g || r.label ? (
                  <div className="flex items-start justify-between gap-2">
                    <span className="min-w-0">
                      <span className="block break-words font-medium">{donorName(r) ?? "—"}</span>
                      {d?.email ? (
                        <span className="block break-all text-muted-foreground text-xs">{d.email}</span>
                      ) : null}
                    </span>
                    {g ? (
                      <span className="shrink-0 font-medium tabular-nums">
                        {formatMoney(g.amountMinor, g.currency)}
                      </span>
                    ) : null}
                  </div>
                ) : null}
                {d?.since ? (
                  <span className="text-muted-foreground">Donor since {formatDate(d.since, tz)}</span>
                ) : null}
                {g ? (
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-muted-foreground">
                    <StatusBadge status={g.status} />
                    <span>{formatDate(g.donatedAt, tz)}</span>
                    <Campaign r={r} />
                  </div>
                ) : null}
                <div className="flex items-start gap-2">
                  <span className="shrink-0 text-muted-foreground tabular-nums">Row {r.row}</span>
                  <Outcome kind={kind} r={r} />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    />
  );
}

interface CheckInput {
  kind: ImportKind;
  file: LoadedFile;
  mapping: Mapping;
  options: ImportOptions;
}

interface CheckProps extends CheckInput {
  /** The finished check of these inputs, or null while none is (the import waits for one). */
  onChecked: (tally: CheckTally | null) => void;
  /** Matches the user refused, by row; `onKeepApart` refuses one or takes the refusal back. */
  keptApart: ReadonlyMap<number, CheckedMatch>;
  onKeepApart: (m: CheckedMatch, apart: boolean) => void;
}

export function PreviewStep(p: CheckProps) {
  const client = useTRPCClient();
  const [answer, setAnswer] = React.useState<Checked | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const { kind, file, mapping, options } = p;
  React.useEffect(() => {
    let live = true;
    setAnswer(null);
    setError(null);
    client.imports.check
      .mutate({
        kind,
        fileHash: file.hash,
        headers: file.shape.headers,
        mapping,
        options,
        rows: file.shape.sample,
      })
      .then(
        (a) => live && setAnswer(a),
        (e) => live && setError(errorInfo(e).message),
      );
    return () => {
      live = false;
    };
  }, [client, kind, file, mapping, options]);

  return (
    <div className="flex flex-col gap-6">
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : !answer ? (
        <div
          className="flex flex-col gap-2"
          role="status"
          aria-busy="true"
          aria-label="Checking the first rows"
        >
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : (
        <PreviewTable kind={kind} rows={answer.rows} />
      )}
      <WholeFileCheck {...p} />
    </div>
  );
}

type CheckRun =
  | { state: "idle" }
  | { state: "running"; done: number }
  | { state: "cancelled"; done: number }
  | { state: "done"; done: number }
  | { state: "failed"; done: number; error: string };

function WholeFileCheck({ kind, file, mapping, options, onChecked, keptApart, onKeepApart }: CheckProps) {
  const client = useTRPCClient();
  const [run, setRun] = React.useState<CheckRun>({ state: "idle" });
  const tally = React.useRef<CheckTally | null>(null);
  const cancel = React.useRef(false);
  const report = React.useRef(onChecked);
  report.current = onChecked;
  // A change of file, mapping or options makes an earlier tally stale: check again, at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: restart on these inputs
  React.useEffect(() => {
    cancel.current = true;
    tally.current = null;
    report.current(null);
    void start();
  }, [file, mapping, options]);
  React.useEffect(
    () => () => {
      cancel.current = true;
      report.current(null);
    },
    [],
  );

  async function start() {
    const t = new CheckTally(kind);
    tally.current = t;
    cancel.current = false;
    let done = 0;
    setRun({ state: "running", done });
    try {
      for await (const rows of rowBatches(file.text, {
        delimiter: file.delimiter,
        firstRowIsData: file.firstRowIsData,
        size: IMPORT_BATCH_ROWS,
        columns: file.shape.headers.length,
      })) {
        if (cancel.current) {
          if (tally.current === t) setRun({ state: "cancelled", done });
          return;
        }
        const a = await client.imports.check.mutate({
          kind,
          fileHash: file.hash,
          headers: file.shape.headers,
          mapping,
          options,
          rows,
        });
        if (tally.current !== t) return;
        t.add(a.rows);
        done += rows.length;
        setRun({ state: "running", done });
      }
      if (tally.current !== t) return;
      setRun({ state: "done", done });
      report.current(t);
    } catch (e) {
      if (tally.current === t) setRun({ state: "failed", done, error: errorInfo(e).message });
    }
  }

  const t = tally.current;
  const total = file.totalRows;
  return (
    <section aria-labelledby="whole-file-check" className="flex flex-col gap-4 border-t pt-5">
      <div className="space-y-1">
        <h3 id="whole-file-check" className="font-semibold">
          Check the whole file
        </h3>
        <p className="text-muted-foreground text-sm">
          Before the import, every row is asked what it would do, writing nothing: rows refused and why,
          donors matched, campaigns to create. {formatCount(total)} rows, {formatCount(IMPORT_BATCH_ROWS)} at
          a time; the import starts once the check is done.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        {run.state === "running" ? (
          <Button type="button" variant="outline" onClick={() => (cancel.current = true)}>
            Cancel the check
          </Button>
        ) : (
          <Button type="button" variant="secondary" onClick={() => void start()}>
            {run.state === "idle" ? "Check the whole file" : "Check again"}
          </Button>
        )}
      </div>
      {run.state !== "idle" ? (
        <div className="flex flex-col gap-1 text-sm" role="status" aria-live="polite">
          <span>
            {run.state === "running"
              ? `Checking… ${formatCount(run.done)} of ${formatCount(total)} rows`
              : run.state === "cancelled"
                ? `Check cancelled after ${formatCount(run.done)} of ${formatCount(total)} rows`
                : run.state === "failed"
                  ? `Check stopped after ${formatCount(run.done)} rows`
                  : `Checked all ${formatCount(run.done)} rows`}
          </span>
          <RowsProgress label="Rows checked" done={run.done} total={total} />
        </div>
      ) : null}
      {run.state === "failed" ? (
        <Alert variant="destructive">
          <AlertDescription>{run.error}</AlertDescription>
        </Alert>
      ) : null}
      {t && run.state !== "idle" ? (
        <>
          <Counts
            items={[
              {
                label: kind === "donations" ? "New donations" : "New donors",
                value: t.outcomes.new,
                testId: "tally-new",
              },
              ...(kind === "donors"
                ? [{ label: "Matched donors", value: t.outcomes.matched, testId: "tally-matched" }]
                : []),
              { label: "Skipped", value: t.outcomes.skipped, testId: "tally-skipped" },
              { label: "Refused", value: t.outcomes.invalid, testId: "tally-invalid" },
              ...(kind === "donations"
                ? [
                    { label: "New donors", value: t.newDonors, testId: "tally-new-donors" },
                    {
                      label: "Donors matched",
                      value: t.existingDonors.size,
                      testId: "tally-donors-matched",
                    },
                    { label: "Campaigns to create", value: t.campaignsNew.size, testId: "tally-campaigns" },
                  ]
                : []),
            ]}
          />
          {t.problems.length || t.notes.length ? (
            <div className="flex flex-col gap-2">
              <h4 className="font-medium text-sm" id="check-problems">
                {t.problems.length && t.notes.length
                  ? "Rows refused or skipped, and notes"
                  : t.problems.length
                    ? "Rows refused or skipped"
                    : "Notes"}
                {t.problems.length >= 200 ? " (the first 200)" : ""}
              </h4>
              <div
                role="region"
                aria-labelledby="check-problems"
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
                tabIndex={0}
                className="max-h-64 overflow-y-auto rounded-md border text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <ol>
                  {[
                    ...t.problems.map((x) => ({ row: x.row, text: x.reason, label: x.label })),
                    ...t.notes.map((x) => ({ row: x.row, text: x.note, label: x.label })),
                  ]
                    .sort((a, b) => a.row - b.row)
                    .map((x, i) => (
                      <li key={`${x.row}-${i}`} className="flex gap-3 border-b px-3 py-2 last:border-0">
                        <span className="w-16 shrink-0 text-muted-foreground tabular-nums">Row {x.row}</span>
                        <span className="min-w-0 break-words">
                          {x.label ? <span className="font-medium">{x.label} — </span> : null}
                          {x.text}
                        </span>
                      </li>
                    ))}
                </ol>
              </div>
            </div>
          ) : null}
          {run.state === "done" ? (
            <WeakMatches tally={t} keptApart={keptApart} onKeepApart={onKeepApart} />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

/**
 * Rows given to a donor the organization has by name + postal code or old ID: two people may share
 * both, so each is shown for the user to refuse (the row then gets a donor of its own).
 */
function WeakMatches({
  tally,
  keptApart,
  onKeepApart,
}: {
  tally: CheckTally;
  keptApart: ReadonlyMap<number, CheckedMatch>;
  onKeepApart: (m: CheckedMatch, apart: boolean) => void;
}) {
  const matches = tally.weakMatches.filter((m) => !keptApart.has(m.row));
  const apart = [...keptApart.values()].sort((a, b) => a.row - b.row);
  if (!matches.length && !apart.length) return null;
  const shown = tally.weakMatchCount > tally.weakMatches.length;
  return (
    <div className="flex flex-col gap-2">
      <div className="space-y-1">
        <h4 className="font-medium text-sm" id="check-matches">
          Matched without an e-mail: {formatCount(tally.weakMatchCount)}{" "}
          {tally.weakMatchCount === 1 ? "row" : "rows"}
          {shown ? ` (the first ${formatCount(tally.weakMatches.length)} listed)` : ""}
          {apart.length ? `; ${formatCount(apart.length)} to get a new donor` : ""}
        </h4>
        <p className="text-muted-foreground text-sm">
          These rows go to a donor you have by name and postal code or by the old system's ID. If a row is
          someone else, create a new donor for it instead.
        </p>
      </div>
      <div
        role="region"
        aria-labelledby="check-matches"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be scrolled by keys
        tabIndex={0}
        className="max-h-80 overflow-y-auto rounded-md border text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <ol>
          {matches.map((m) => (
            <li
              key={m.row}
              data-match-row={m.row}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b px-3 py-2 last:border-0"
            >
              <span className="w-16 shrink-0 text-muted-foreground tabular-nums">Row {m.row}</span>
              <span className="min-w-0 flex-1 break-words">
                {m.label ? <span className="font-medium">{m.label}</span> : "This row"} goes to{" "}
                <Link to="/donors/$donorId" params={{ donorId: m.donorId }} className="underline">
                  {m.donorName ?? "a donor"}
                </Link>{" "}
                <span className="text-muted-foreground">(by {MATCHED_BY[m.by]})</span>
              </span>
              <Button
                type="button"
                variant="outline"
                size="sm"
                aria-label={`Create a new donor instead, for row ${m.row}`}
                onClick={() => onKeepApart(m, true)}
              >
                Create a new donor instead
              </Button>
            </li>
          ))}
          {apart.map((m) => (
            <li
              key={m.row}
              data-match-row={m.row}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b px-3 py-2 last:border-0"
            >
              <span className="w-16 shrink-0 text-muted-foreground tabular-nums">Row {m.row}</span>
              <span className="min-w-0 flex-1 break-words">
                {m.label ? <span className="font-medium">{m.label}</span> : "This row"} gets a new donor, not{" "}
                {m.donorName ?? "the donor it matched"}
              </span>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                aria-label={`Match again, row ${m.row} to ${m.donorName ?? "the donor"}`}
                onClick={() => onKeepApart(m, false)}
              >
                Match again
              </Button>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
