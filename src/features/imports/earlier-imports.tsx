/**
 * This kind's imports (imports.list): the file, when, by whom, where it stands and what it did,
 * with its refused rows to download, its undo and its records to view. A table on a desk, cards on
 * a phone.
 */
import type { ImportKind } from "@core/import/fields";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import * as React from "react";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Skeleton } from "~/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount, formatDateTime } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";
import { DownloadRejectedButton, UndoImportDialog, useCanDownloadRejected } from "./import-actions";
import { ByWidth, type Tone, ToneBadge } from "./parts";
import type { PresentedImport } from "./use-import-run";

const STATUS: Record<PresentedImport["status"], { label: string; tone: Tone }> = {
  running: { label: "Stopped", tone: "warning" },
  completed: { label: "Completed", tone: "success" },
  rolling_back: { label: "Undoing", tone: "warning" },
  rolled_back: { label: "Undone", tone: "outline" },
};

export function ImportStatus({ imp }: { imp: PresentedImport }) {
  const s = STATUS[imp.status];
  return (
    <span className="flex min-w-0 flex-col items-start gap-0.5">
      <ToneBadge tone={s.tone}>{s.label}</ToneBadge>
      {imp.status === "running" ? (
        <span className="whitespace-normal text-muted-foreground text-xs">
          Stopped at row {formatCount(imp.nextRow)}: choose the same file to resume
        </span>
      ) : imp.status === "rolling_back" ? (
        <span className="whitespace-normal text-muted-foreground text-xs">The undo did not finish</span>
      ) : null}
    </span>
  );
}

/** "12 gifts, 3 new donors, 1 campaign · 2 skipped, 1 refused". */
function countsLine(kind: ImportKind, imp: PresentedImport) {
  const c = imp.counts;
  const n = (x: number, one: string, many: string) => `${formatCount(x)} ${x === 1 ? one : many}`;
  const made =
    kind === "donations"
      ? [
          n(c.giftsCreated, "donation", "donations"),
          n(c.donorsCreated, "new donor", "new donors"),
          c.campaignsCreated ? n(c.campaignsCreated, "campaign", "campaigns") : "",
        ]
      : [
          n(c.donorsCreated, "new donor", "new donors"),
          c.donorsUpdated ? `${formatCount(c.donorsUpdated)} updated` : "",
          c.donorsMatched ? `${formatCount(c.donorsMatched)} matched` : "",
        ];
  const rest = [
    c.rowsSkipped ? `${formatCount(c.rowsSkipped)} skipped` : "",
    c.rowsInvalid ? `${formatCount(c.rowsInvalid)} refused` : "",
  ];
  return [made.filter(Boolean).join(", "), rest.filter(Boolean).join(", ")].filter(Boolean).join(" · ");
}

export function EarlierImports({ kind }: { kind: ImportKind }) {
  const trpc = useTRPC();
  const tz = useTimeZone();
  const can = useCan();
  const list = useQuery(trpc.imports.list.queryOptions({ kind }));
  const [undoing, setUndoing] = React.useState<PresentedImport | null>(null);
  const [undoOpen, setUndoOpen] = React.useState(false);
  const mayDownload = useCanDownloadRejected();
  const mayUndo = can({ import: ["delete"] });
  const rows = list.data ?? [];
  const by = (imp: (typeof rows)[number]) => imp.createdByName;

  const actions = (imp: PresentedImport) => (
    <div className="flex flex-wrap gap-2">
      {kind === "donations" && imp.counts.giftsCreated > 0 && imp.status !== "rolled_back" ? (
        <Button asChild variant="outline" size="sm">
          <Link to="/donations" search={{ importId: imp.id } as never}>
            View donations
          </Link>
        </Button>
      ) : null}
      {kind === "donors" && imp.counts.donorsCreated > 0 && imp.status !== "rolled_back" ? (
        <Button asChild variant="outline" size="sm">
          <Link to="/donors" search={{ importId: imp.id } as never}>
            View donors
          </Link>
        </Button>
      ) : null}
      {mayDownload && imp.counts.rowsInvalid > 0 ? <DownloadRejectedButton imp={imp} size="sm" /> : null}
      {mayUndo && imp.status !== "rolled_back" ? (
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => {
            setUndoing(imp);
            setUndoOpen(true);
          }}
          aria-label={`${imp.status === "rolling_back" ? "Finish undoing" : "Undo"} ${imp.fileName}`}
        >
          {imp.status === "rolling_back" ? "Finish undo" : "Undo"}
        </Button>
      ) : null}
    </div>
  );

  return (
    <section aria-labelledby="earlier-imports" className="flex min-w-0 flex-col gap-3">
      <h2 id="earlier-imports" className="font-semibold text-lg">
        Earlier imports
      </h2>
      {list.error ? (
        <Alert variant="destructive">
          <AlertDescription>{errorInfo(list.error).message}</AlertDescription>
        </Alert>
      ) : list.isPending ? (
        <div
          className="flex flex-col gap-2"
          role="status"
          aria-busy="true"
          aria-label="Loading earlier imports"
        >
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : !rows.length ? (
        <p className="rounded-md border bg-card py-8 text-center text-muted-foreground text-sm">
          No {kind} imported yet.
        </p>
      ) : (
        <ByWidth
          wide={() => (
            <Table containerClassName="rounded-md border bg-card" aria-label="Earlier imports">
              <TableHeader>
                <TableRow>
                  <TableHead>File</TableHead>
                  <TableHead>When</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>What it did</TableHead>
                  <TableHead>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((imp) => (
                  <TableRow key={imp.id} data-import={imp.id}>
                    <TableCell className="min-w-40 max-w-64 whitespace-normal">
                      <span className="block break-words font-medium">{imp.fileName}</span>
                      <span className="block text-muted-foreground text-xs">
                        {formatCount(imp.totalRows)} rows
                      </span>
                    </TableCell>
                    <TableCell className="whitespace-normal">
                      <span className="block">{formatDateTime(imp.createdAt, tz)}</span>
                      {by(imp) ? (
                        <span className="block text-muted-foreground text-xs">by {by(imp)}</span>
                      ) : null}
                    </TableCell>
                    <TableCell className="max-w-48 whitespace-normal">
                      <ImportStatus imp={imp} />
                    </TableCell>
                    <TableCell className="max-w-64 whitespace-normal text-sm">
                      {countsLine(kind, imp)}
                    </TableCell>
                    <TableCell className="whitespace-normal">{actions(imp)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          narrow={() => (
            <ul className="flex flex-col gap-2" aria-label="Earlier imports">
              {rows.map((imp) => (
                <li
                  key={imp.id}
                  data-import={imp.id}
                  className="flex flex-col gap-2 rounded-md border bg-card p-3 text-sm"
                >
                  <div className="flex items-start justify-between gap-2">
                    <span className="min-w-0 break-all font-medium">{imp.fileName}</span>
                    <ToneBadge tone={STATUS[imp.status].tone}>{STATUS[imp.status].label}</ToneBadge>
                  </div>
                  <span className="text-muted-foreground">
                    {formatDateTime(imp.createdAt, tz)}
                    {by(imp) ? ` · by ${by(imp)}` : ""} · {formatCount(imp.totalRows)} rows
                  </span>
                  {imp.status === "running" ? (
                    <span className="text-muted-foreground">
                      Stopped at row {formatCount(imp.nextRow)}: choose the same file to resume
                    </span>
                  ) : null}
                  <span>{countsLine(kind, imp)}</span>
                  {actions(imp)}
                </li>
              ))}
            </ul>
          )}
        />
      )}
      {undoing ? <UndoImportDialog imp={undoing} open={undoOpen} onOpenChange={setUndoOpen} /> : null}
    </section>
  );
}
