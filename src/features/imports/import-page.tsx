/**
 * /donors/import and /donations/import (issue 23, docs/decisions/028-csv-import.md): a file read
 * in the browser, its columns mapped, its reading options, a preview and a dry run of the whole file
 * by the Worker, then the import in batches with progress and Stop, its result, its refused rows and
 * its undo; below, this kind's earlier imports. Owners and organization admins only (import:create;
 * the routes send others back to their list).
 */
import { IMPORT_BATCH_ROWS } from "@core/import/batch";
import type { ImportKind, ImportOptions } from "@core/import/fields";
import { mappingProblem } from "@core/import/fields";
import { autoMap } from "@core/import/mapping";
import { importButtonWords } from "@core/import/outcome";
import { rowBatches } from "@core/import/read";
import type { CheckedMatch, CheckTally } from "@core/import/runner";
import { exponentOf } from "@core/money";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowLeft } from "lucide-react";
import * as React from "react";
import { PageHeader } from "~/components/layout/page-header";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { formatCount } from "~/lib/format";
import { useTimeZone } from "~/lib/time-zone";
import { useTRPC } from "~/lib/trpc";
import { EarlierImports } from "./earlier-imports";
import type { LoadedFile } from "./file";
import { FileStep } from "./file-step";
import { dateQuestion, decimalQuestion, type Mapping, requirementText, valuesOf } from "./logic";
import { MappingStep } from "./mapping-step";
import { OptionsStep, optionsProblem, type Questions } from "./options-step";
import { type StepId, Stepper, StepSection } from "./parts";
import { PreviewStep } from "./preview-step";
import { RunStep } from "./run-step";
import { useImportRun } from "./use-import-run";

type Currency = ImportOptions["currency"];
type RawOptions = Omit<ImportOptions, "currency"> & { currency: Currency | "" };

/** Rows read to decide whether to ask for the day order and the decimal mark. */
const EVIDENCE_ROWS = 2000;

const COPY = {
  donations: {
    title: "Import donations",
    description:
      "Bring donations in from a CSV export of GiveWP, Donorbox, Bloomerang, Stripe, Salesforce NPSP, Open Collective, CiviCRM or a spreadsheet. Their donors and campaigns come with them. Almoner issues no receipt for imported donations (the system they came from receipted them); year-end statements list them, marked “Previous system”.",
    list: "/donations",
    back: "Donations",
  },
  donors: {
    title: "Import donors",
    description:
      "Bring donors in from a CSV export of Bloomerang, Salesforce NPSP, CiviCRM, a mailing list or a spreadsheet. Donors you already have are matched, not doubled.",
    list: "/donors",
    back: "Donors",
  },
} as const;

export function ImportPage({ kind }: { kind: ImportKind }) {
  const trpc = useTRPC();
  const zone = useTimeZone();
  const org = useQuery(trpc.organization.current.queryOptions());
  const orgCurrency = org.data?.defaultCurrency ?? "USD";
  const orgZone = org.data?.timeZone ?? zone;
  const copy = COPY[kind];

  const [step, setStep] = React.useState<StepId>("file");
  const moved = React.useRef(false);
  const [file, setFile] = React.useState<LoadedFile | null>(null);
  const [mapping, setMapping] = React.useState<Mapping>([]);
  // Currency and zone "" stand for the organization's (known once its query answers).
  const [rawOptions, setRawOptions] = React.useState<RawOptions>({
    dateOrder: "auto",
    decimal: "auto",
    currency: "",
    timeZone: "",
    matchPolicy: "fill",
  });
  // Matches the user refused in the preview: those rows get a donor of their own (issue 55).
  const [keptApart, setKeptApart] = React.useState<ReadonlyMap<number, CheckedMatch>>(new Map());
  const options = React.useMemo((): ImportOptions => {
    // The steps hand back the whole options object: the rows kept apart come from keptApart alone.
    const { newDonorRows: _, ...raw } = rawOptions;
    return {
      ...raw,
      currency: raw.currency || (orgCurrency as Currency),
      timeZone: raw.timeZone || orgZone,
      // The file's own reading, sent so the Worker numbers its rows from 1 (kept for a resume).
      firstRowIsData: file?.firstRowIsData ? true : undefined,
      ...(keptApart.size ? { newDonorRows: [...keptApart.keys()].sort((a, b) => a - b) } : {}),
    };
  }, [rawOptions, orgCurrency, orgZone, keptApart, file?.firstRowIsData]);
  // The whole-file check of the current file, mapping and options; the import waits for it.
  const [checked, setChecked] = React.useState<CheckTally | null>(null);
  const planned = checked ? importButtonWords(checked.outcomes) : null;
  // Another file or mapping matches other rows: a refusal made for the old one no longer applies.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on these inputs
  React.useEffect(() => setKeptApart(new Map()), [file, mapping]);
  const [questions, setQuestions] = React.useState<Questions | null>(null);
  const [reading, setReading] = React.useState(false);
  const run = useImportRun();

  const go = (next: StepId) => {
    moved.current = true;
    setStep(next);
  };

  // Leaving the page while rows are being sent: the browser asks first (the import would stop).
  const sending = run.state.phase === "sending" || run.state.phase === "starting";
  React.useEffect(() => {
    if (!sending) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [sending]);

  function chooseFile(f: LoadedFile | null) {
    setFile(f);
    setQuestions(null);
    if (f)
      setMapping(
        autoMap(
          kind,
          f.shape.headers,
          f.shape.sample.map((r) => r.cells),
        ),
      );
  }

  /** Reads the first rows of the mapped date and amount columns: do they tell their own style? */
  async function toOptions() {
    if (!file) return;
    setReading(true);
    try {
      const batches = rowBatches(file.text, {
        delimiter: file.delimiter,
        firstRowIsData: file.firstRowIsData,
        size: EVIDENCE_ROWS,
        columns: file.shape.headers.length,
      });
      const first = await batches.next();
      await batches.return(undefined);
      const rows = first.value ?? [];
      const q: Questions = {
        date: dateQuestion(valuesOf(rows, mapping, ["donatedAt", "donorSince"])),
        decimal: decimalQuestion(
          valuesOf(rows, mapping, ["amount", "refundedAmount", "processingFee"]),
          exponentOf(options.currency),
        ),
      };
      setQuestions(q);
      setRawOptions((o) => ({
        ...o,
        dateOrder: q.date.ask
          ? o.dateOrder === "dmy" || o.dateOrder === "mdy"
            ? o.dateOrder
            : "auto"
          : q.date.order,
        decimal: q.decimal.ask ? o.decimal : q.decimal.decimal,
      }));
      go("options");
    } finally {
      setReading(false);
    }
  }

  const mapProblem = file ? mappingProblem(kind, mapping) : null;
  const optProblem = questions ? optionsProblem(questions, options) : null;
  const focus = moved.current;

  return (
    <>
      <PageHeader
        title={copy.title}
        description={copy.description}
        actions={
          <Button asChild variant="outline">
            <Link to={copy.list}>
              <ArrowLeft className="size-4" /> {copy.back}
            </Link>
          </Button>
        }
      />
      <Stepper step={step} />
      {file && step !== "file" && step !== "run" ? (
        <p className="-mt-2 flex flex-wrap items-center gap-x-2 text-muted-foreground text-sm">
          <span className="min-w-0 break-all">
            <span className="font-medium text-foreground">{file.name}</span> · {formatCount(file.totalRows)}{" "}
            rows
          </span>
          <Button type="button" variant="link" size="sm" className="h-auto px-0" onClick={() => go("file")}>
            Change file
          </Button>
        </p>
      ) : null}

      {step === "file" ? (
        <StepSection
          key="file"
          title="Choose a file"
          focusOnMount={focus}
          description="Nothing is imported until the last step: first the columns, the options and a preview."
        >
          <FileStep
            kind={kind}
            file={file}
            onFile={chooseFile}
            onNext={() => go("map")}
            onResume={(imp) => {
              go("run");
              if (file) void run.resume(imp.id, file);
            }}
          />
        </StepSection>
      ) : null}

      {step === "map" && file ? (
        <StepSection
          key="map"
          title="Map columns"
          focusOnMount={focus}
          description="Choose what each column of the file holds; columns set to “Don't import” are left out."
          footer={
            <>
              <Button type="button" variant="outline" onClick={() => go("file")}>
                Back
              </Button>
              <span className="flex flex-wrap items-center justify-end gap-2">
                {mapProblem ? <span className="sr-only">{requirementText(kind)}</span> : null}
                <Button type="button" disabled={!!mapProblem || reading} onClick={() => void toOptions()}>
                  {reading ? <Spinner /> : null}
                  Next: options
                </Button>
              </span>
            </>
          }
        >
          <MappingStep
            kind={kind}
            file={file}
            mapping={mapping}
            onMapping={setMapping}
            options={options}
            onOptions={setRawOptions}
          />
        </StepSection>
      ) : null}

      {step === "options" && file && questions ? (
        <StepSection
          key="options"
          title="Options"
          focusOnMount={focus}
          description="How the file's values are read, and what happens to donors you already have."
          footer={
            <>
              <Button type="button" variant="outline" onClick={() => go("map")}>
                Back
              </Button>
              <span className="flex flex-wrap items-center justify-end gap-2">
                {optProblem ? (
                  <span className="text-destructive text-sm" data-testid="options-problem">
                    {optProblem}
                  </span>
                ) : null}
                <Button type="button" disabled={!!optProblem} onClick={() => go("preview")}>
                  Next: preview
                </Button>
              </span>
            </>
          }
        >
          <OptionsStep
            kind={kind}
            options={options}
            onOptions={setRawOptions}
            questions={questions}
            orgCurrency={orgCurrency}
            orgTimeZone={orgZone}
          />
        </StepSection>
      ) : null}

      {step === "preview" && file ? (
        <StepSection
          key="preview"
          title="Preview"
          focusOnMount={focus}
          description={`The first ${formatCount(file.shape.sample.length)} rows as they will be stored, read by the server exactly as the import will read them. Nothing is written yet.`}
          footer={
            <>
              <Button type="button" variant="outline" onClick={() => go("options")}>
                Back
              </Button>
              <Button
                type="button"
                disabled={!planned || planned.rows === 0}
                data-testid="import-button"
                onClick={() => {
                  go("run");
                  void run.start(kind, file, mapping, options);
                }}
              >
                {planned ? planned.label : "Import after the whole-file check"}
              </Button>
            </>
          }
        >
          <PreviewStep
            kind={kind}
            file={file}
            mapping={mapping}
            options={options}
            onChecked={setChecked}
            keptApart={keptApart}
            onKeepApart={(m, apart) =>
              setKeptApart((was) => {
                const next = new Map(was);
                if (apart) next.set(m.row, m);
                else next.delete(m.row);
                return next;
              })
            }
          />
        </StepSection>
      ) : null}

      {step === "run" && file ? (
        <StepSection
          key="run"
          title={
            run.state.phase === "done"
              ? "Import finished"
              : run.state.phase === "stopped"
                ? "Import stopped"
                : `Importing ${file.name}`
          }
          focusOnMount={focus}
          description={
            run.state.phase === "done"
              ? undefined
              : `Rows go to the server ${formatCount(IMPORT_BATCH_ROWS)} at a time; each batch is written whole or not at all.`
          }
          footer={
            run.state.phase === "failed" && !run.state.imp ? (
              <Button type="button" variant="outline" onClick={() => go("preview")}>
                Back to the preview
              </Button>
            ) : undefined
          }
        >
          <RunStep
            kind={kind}
            run={run.state}
            onStop={run.stop}
            onContinue={() => {
              const id = run.state.imp?.id;
              if (id) void run.resume(id, file);
            }}
            onAnother={() => {
              run.reset();
              setFile(null);
              setQuestions(null);
              go("file");
            }}
          />
        </StepSection>
      ) : null}

      <EarlierImports kind={kind} />
    </>
  );
}
