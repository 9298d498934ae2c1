/**
 * Step 1: the file. A drop zone and a file input; the file is read here (./file.ts) and described:
 * rows, encoding, separator and header row (each can be changed), the system it comes from. An unfinished
 * import of this very file offers to resume.
 */

import { IMPORT_MAX_FILE_BYTES } from "@core/import/batch";
import { ENCODING_LABELS } from "@core/import/encoding";
import { type ImportEncoding, type ImportKind, importEncodings } from "@core/import/fields";
import { type ImportDelimiter, importDelimiters } from "@core/import/read";
import { useQuery } from "@tanstack/react-query";
import { FileUp, RotateCcw } from "lucide-react";
import * as React from "react";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { NativeSelect } from "~/components/ui/native-select";
import { Spinner } from "~/components/ui/spinner";
import type { RouterOutputs } from "~/lib/api-types";
import { errorInfo, formatCount, formatDateTime } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";
import { cn } from "~/lib/utils";
import { DELIMITER_LABELS, FileProblem, type LoadedFile, loadFile, rereadFile } from "./file";
import { fileSize } from "./logic";

export type PresentedImport = RouterOutputs["imports"]["byId"];

export function FileStep({
  kind,
  file,
  onFile,
  onNext,
  onResume,
}: {
  kind: ImportKind;
  file: LoadedFile | null;
  onFile: (f: LoadedFile | null) => void;
  onNext: () => void;
  onResume: (imp: PresentedImport) => void;
}) {
  const trpc = useTRPC();
  const tz = useTimeZone();
  const input = React.useRef<HTMLInputElement>(null);
  const [reading, setReading] = React.useState<string | null>(null);
  const [problem, setProblem] = React.useState<string | null>(null);
  const [dragging, setDragging] = React.useState(false);
  // While the file is read again the controls stay enabled (a disabled control drops the keyboard's
  // focus to the page) and a second change waits for the first.
  const rereading = React.useRef(false);
  const resumable = useQuery({
    ...trpc.imports.resumable.queryOptions({ kind, fileHash: file?.hash ?? "0".repeat(64) }),
    enabled: !!file,
    staleTime: 0,
  });

  async function read(f: File | undefined) {
    if (!f) return;
    setProblem(null);
    setReading(`Reading ${f.name}…`);
    try {
      onFile(await loadFile(f));
    } catch (e) {
      onFile(null);
      setProblem(
        e instanceof FileProblem ? e.message : `The file could not be read: ${errorInfo(e).message}`,
      );
    } finally {
      setReading(null);
      if (input.current) input.current.value = "";
    }
  }

  async function change(
    c: { encoding: ImportEncoding } | { delimiter: ImportDelimiter } | { firstRowIsData: boolean },
  ) {
    if (!file || rereading.current) return;
    rereading.current = true;
    setProblem(null);
    setReading("Reading the file again…");
    try {
      onFile(await rereadFile(file, c));
    } catch (e) {
      setProblem(e instanceof FileProblem ? e.message : errorInfo(e).message);
    } finally {
      rereading.current = false;
      setReading(null);
    }
  }

  const resume = resumable.data;
  const sameColumns =
    !!resume &&
    !!file &&
    !!resume.options.firstRowIsData === file.firstRowIsData &&
    resume.headers.length === file.shape.headers.length &&
    resume.headers.every((h, i) => h === file.shape.headers[i]);

  return (
    <div className="flex flex-col gap-5">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the button inside is the keyboard's way */}
      <div
        className={cn(
          "flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-6 text-center transition-colors",
          dragging ? "border-primary bg-primary/5" : "border-input",
        )}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void read(e.dataTransfer.files[0]);
        }}
      >
        <FileUp className="size-8 text-muted-foreground" aria-hidden="true" />
        <p className="text-sm">
          Drop a CSV file here, or choose one. UTF-8, UTF-16 or Windows-1252; comma, semicolon or tab; up to{" "}
          {fileSize(IMPORT_MAX_FILE_BYTES)}.
        </p>
        <input
          ref={input}
          id="import-file"
          type="file"
          accept=".csv,.txt,.tsv,text/csv,text/plain,text/tab-separated-values"
          aria-label="CSV file"
          className="sr-only"
          tabIndex={-1}
          onChange={(e) => void read(e.target.files?.[0])}
        />
        <Button type="button" variant={file ? "outline" : "default"} onClick={() => input.current?.click()}>
          {file ? "Choose another file" : "Choose a file"}
        </Button>
      </div>

      {reading ? (
        <p role="status" className="flex items-center gap-2 text-sm">
          <Spinner /> {reading}
        </p>
      ) : null}
      {problem ? (
        <Alert variant="destructive">
          <AlertTitle className="line-clamp-none">This file cannot be imported</AlertTitle>
          <AlertDescription>{problem}</AlertDescription>
        </Alert>
      ) : null}

      {file ? (
        <div className="flex flex-col gap-4">
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-muted-foreground">File</dt>
            <dd className="min-w-0 break-all font-medium" data-testid="import-file-name">
              {file.name} {/* The name may break anywhere; the size never ("149 byte / s" at 360 px). */}
              <span className="whitespace-nowrap break-normal font-normal text-muted-foreground">
                ({fileSize(file.size)})
              </span>
            </dd>
            <dt className="text-muted-foreground">Rows</dt>
            <dd data-testid="import-file-rows">
              {formatCount(file.totalRows)} rows{file.firstRowIsData ? "" : " after the header"},{" "}
              {formatCount(file.shape.headers.length)} columns
            </dd>
          </dl>
          {file.source ? (
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <Badge variant="secondary">{file.source.label}</Badge>
              Looks like a {file.source.label} export: its columns are mapped for you.
            </p>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <label className="grid gap-1.5 text-sm">
              <span className="font-medium">Encoding</span>
              <NativeSelect
                className="w-full min-w-0 max-w-full"
                value={file.encoding}
                aria-disabled={!!reading}
                onChange={(e) => void change({ encoding: e.target.value as ImportEncoding })}
              >
                {importEncodings.map((enc) => (
                  <option key={enc} value={enc}>
                    {ENCODING_LABELS[enc]}
                    {enc === file.detectedEncoding ? " (detected)" : ""}
                  </option>
                ))}
              </NativeSelect>
              <span className="text-muted-foreground">
                Change it if names show odd characters (é read as Ã©).
              </span>
            </label>
            <label className="grid gap-1.5 text-sm">
              <span className="font-medium">Separator</span>
              <NativeSelect
                className="w-full min-w-0 max-w-full"
                value={file.delimiter}
                aria-disabled={!!reading}
                onChange={(e) => void change({ delimiter: e.target.value as ImportDelimiter })}
              >
                {importDelimiters.map((d) => (
                  <option key={d} value={d}>
                    {DELIMITER_LABELS[d]}
                    {d === file.detectedDelimiter ? " (detected)" : ""}
                  </option>
                ))}
              </NativeSelect>
              <span className="text-muted-foreground">Change it if the columns below run together.</span>
            </label>
          </div>
          <div className="grid gap-1.5 text-sm">
            <div className="flex items-center gap-2">
              <Checkbox
                id="import-first-row-data"
                checked={file.firstRowIsData}
                aria-disabled={!!reading}
                aria-describedby="import-header-row"
                onCheckedChange={(v) => void change({ firstRowIsData: v === true })}
              />
              <label htmlFor="import-first-row-data" className="font-medium">
                The first row is data
              </label>
            </div>
            <span id="import-header-row" className="text-muted-foreground" data-testid="import-header-row">
              {file.detectedFirstRowIsData
                ? "The first row looks like data, not column names: it is read as a row."
                : "Tick it if the file has no row of column names: its columns become Column 1, Column 2, …"}
            </span>
          </div>
          <div className="text-sm">
            <p className="mb-1 text-muted-foreground">Columns</p>
            <ul className="flex flex-wrap gap-1.5" aria-label="Columns in the file">
              {file.shape.headers.map((h, i) => (
                <li key={i}>
                  <Badge variant="outline" className="max-w-64 truncate">
                    {h || `Column ${i + 1}`}
                  </Badge>
                </li>
              ))}
            </ul>
          </div>

          {resumable.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm">
              <Spinner /> Looking for an unfinished import of this file…
            </p>
          ) : resumable.error ? (
            <Alert variant="destructive">
              <AlertDescription>{errorInfo(resumable.error).message}</AlertDescription>
            </Alert>
          ) : resume ? (
            <Alert variant="warning" role="status">
              <RotateCcw aria-hidden="true" />
              <AlertTitle className="line-clamp-none">You started importing this file before</AlertTitle>
              <AlertDescription>
                <p>
                  Started {formatDateTime(resume.createdAt, tz)}; it stopped at row{" "}
                  {formatCount(resume.nextRow)} ({formatCount(resume.rowsDone)} of{" "}
                  {formatCount(resume.totalRows)} rows done). Resuming uses that import's own columns and
                  options and creates nothing twice.
                </p>
                {!sameColumns ? (
                  <p className="text-destructive">
                    The columns read differently now than when it started: choose the encoding, separator and
                    header row it was read with to resume.
                  </p>
                ) : null}
                <div className="mt-2 flex flex-wrap gap-2">
                  <Button type="button" disabled={!sameColumns} onClick={() => onResume(resume)}>
                    Resume from row {formatCount(resume.nextRow)}
                  </Button>
                  <Button type="button" variant="outline" onClick={onNext}>
                    Start a new import
                  </Button>
                </div>
              </AlertDescription>
            </Alert>
          ) : null}
        </div>
      ) : null}

      {file && !resumable.isPending && !resume ? (
        <div className="flex flex-wrap justify-end gap-2 border-t pt-4">
          <Button type="button" onClick={onNext} disabled={!!reading}>
            Next: map columns
          </Button>
        </div>
      ) : null}
    </div>
  );
}
