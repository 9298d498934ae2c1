/**
 * Step 2: which field each column of the file fills. Starts from autoMap (core/import/mapping.ts);
 * a saved mapping can be applied, saved or deleted (by header name, so next month's export maps
 * again). A table on a desk, cards on a phone.
 */

import {
  dateOrders,
  decimalMarks,
  donorImportFields,
  giftImportFields,
  IMPORT_FIELD_LABELS,
  type ImportField,
  type ImportKind,
  type ImportOptions,
  mappingProblem,
  matchPolicies,
} from "@core/import/fields";
import { applySavedMapping, columnZones, mappingToSave, type TimeField } from "@core/import/mapping";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Save, Trash2 } from "lucide-react";
import * as React from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCan } from "~/lib/auth/can";
import { errorInfo, formatCount } from "~/lib/format";
import { useTRPC, useTRPCClient } from "~/lib/trpc";
import { cn } from "~/lib/utils";
import type { LoadedFile } from "./file";
import { assignField, columnSamples, type Mapping, requirementText } from "./logic";
import { ByWidth } from "./parts";

const header = (h: string, i: number) => h.trim() || `Column ${i + 1}`;
// The note is the select's description: a screen reader on "Import as" hears the zone too.
const zoneId = (i: number) => `import-column-zone-${i}`;

export function MappingStep({
  kind,
  file,
  mapping,
  onMapping,
  options,
  onOptions,
}: {
  kind: ImportKind;
  file: LoadedFile;
  mapping: Mapping;
  onMapping: (m: Mapping) => void;
  options: ImportOptions;
  onOptions: (o: ImportOptions) => void;
}) {
  const headers = file.shape.headers;
  const problem = mappingProblem(kind, mapping);
  const mapped = mapping.filter(Boolean).length;
  const zones = columnZones(headers, mapping);
  const zoneOf = (i: number) => zones[mapping[i] as TimeField];
  const choose = (i: number, value: string) =>
    onMapping(assignField(mapping, i, (value || null) as ImportField | null));
  return (
    <div className="flex flex-col gap-5">
      <SavedMappings
        kind={kind}
        file={file}
        mapping={mapping}
        onMapping={onMapping}
        options={options}
        onOptions={onOptions}
      />
      <div className="flex flex-col gap-1 text-sm">
        <p>
          <span className="font-medium">Required:</span> {requirementText(kind)}
        </p>
        <p className="text-muted-foreground" aria-live="polite">
          {formatCount(mapped)} of {formatCount(headers.length)} columns will be imported. Each field comes
          from one column: choosing a field taken by another column moves it here.
        </p>
      </div>
      <ByWidth
        wide={() => (
          <Table containerClassName="rounded-md border" aria-label="Columns of the file">
            <TableHeader>
              <TableRow>
                <TableHead>Column in the file</TableHead>
                <TableHead>Sample values</TableHead>
                <TableHead className="w-72">Import as</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {headers.map((h, i) => (
                <TableRow key={i} data-column={header(h, i)}>
                  <TableCell className="max-w-56 whitespace-normal break-words font-medium">
                    {header(h, i)}
                  </TableCell>
                  <TableCell className="max-w-80 whitespace-normal">
                    <Samples values={columnSamples(file.shape.sample, i)} />
                  </TableCell>
                  <TableCell>
                    <FieldSelect
                      kind={kind}
                      headers={headers}
                      mapping={mapping}
                      column={i}
                      describedBy={zoneOf(i) ? zoneId(i) : undefined}
                      onChange={(v) => choose(i, v)}
                    />
                    <ZoneNote id={zoneId(i)} zone={zoneOf(i)} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        narrow={() => (
          <ul className="flex flex-col gap-2" aria-label="Columns of the file">
            {headers.map((h, i) => (
              <li
                key={i}
                data-column={header(h, i)}
                className={cn("flex flex-col gap-2 rounded-md border p-3", mapping[i] && "border-primary/40")}
              >
                <span className="break-words font-medium">{header(h, i)}</span>
                <Samples values={columnSamples(file.shape.sample, i)} />
                <FieldSelect
                  kind={kind}
                  headers={headers}
                  mapping={mapping}
                  column={i}
                  describedBy={zoneOf(i) ? zoneId(i) : undefined}
                  onChange={(v) => choose(i, v)}
                />
                <ZoneNote id={zoneId(i)} zone={zoneOf(i)} />
              </li>
            ))}
          </ul>
        )}
      />
      {problem ? (
        <p className="font-medium text-destructive text-sm" role="status" data-testid="mapping-problem">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/** A time column read in its header's zone, not the import's: said where the column is mapped. */
function ZoneNote({ id, zone }: { id: string; zone: string | undefined }) {
  if (!zone) return null;
  return (
    <span id={id} className="mt-1 block text-muted-foreground text-xs" data-testid="column-zone">
      Read as {zone}: the column's name says so.
    </span>
  );
}

function Samples({ values }: { values: string[] }) {
  if (!values.length)
    return <span className="text-muted-foreground text-sm">No values in the first rows</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {values.map((v) => (
        <span
          key={v}
          className="max-w-full truncate rounded bg-muted px-1.5 py-0.5 font-mono text-muted-foreground text-xs"
          title={v}
        >
          {v.length > 40 ? `${v.slice(0, 40)}…` : v}
        </span>
      ))}
    </span>
  );
}

function FieldSelect({
  kind,
  headers,
  mapping,
  column,
  describedBy,
  onChange,
}: {
  kind: ImportKind;
  headers: string[];
  mapping: Mapping;
  column: number;
  describedBy?: string;
  onChange: (value: string) => void;
}) {
  const takenBy = (f: ImportField) => {
    const at = mapping.indexOf(f);
    return at >= 0 && at !== column ? header(headers[at] ?? "", at) : null;
  };
  const option = (f: ImportField) => {
    const other = takenBy(f);
    return (
      <option key={f} value={f}>
        {IMPORT_FIELD_LABELS[f]}
        {other ? ` (now from “${other}”)` : ""}
      </option>
    );
  };
  return (
    <NativeSelect
      aria-label={`Import “${header(headers[column] ?? "", column)}” as`}
      aria-describedby={describedBy}
      className="w-full min-w-0 max-w-full"
      value={mapping[column] ?? ""}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">Don't import</option>
      {kind === "donations" ? <optgroup label="Donation">{giftImportFields.map(option)}</optgroup> : null}
      <optgroup label="Donor">{donorImportFields.map(option)}</optgroup>
    </NativeSelect>
  );
}

/** The saved reading options, if they are ones this page knows. */
function savedOptions(o: Record<string, unknown>): Partial<ImportOptions> {
  const out: Partial<ImportOptions> = {};
  if ((dateOrders as readonly unknown[]).includes(o.dateOrder)) out.dateOrder = o.dateOrder as never;
  if ((decimalMarks as readonly unknown[]).includes(o.decimal)) out.decimal = o.decimal as never;
  if ((matchPolicies as readonly unknown[]).includes(o.matchPolicy)) out.matchPolicy = o.matchPolicy as never;
  return out;
}

function SavedMappings({
  kind,
  file,
  mapping,
  onMapping,
  options,
  onOptions,
}: {
  kind: ImportKind;
  file: LoadedFile;
  mapping: Mapping;
  onMapping: (m: Mapping) => void;
  options: ImportOptions;
  onOptions: (o: ImportOptions) => void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const can = useCan();
  const list = useQuery(trpc.imports.mappings.list.queryOptions({ kind }));
  const [chosen, setChosen] = React.useState("");
  const [saving, setSaving] = React.useState(false);
  const [deleting, setDeleting] = React.useState(false);
  const [name, setName] = React.useState("");
  const [nameError, setNameError] = React.useState<string | null>(null);
  const saved = list.data ?? [];
  const current = saved.find((m) => m.id === chosen);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.imports.mappings.list.queryKey({ kind }) });
  const remove = useMutation(trpc.imports.mappings.delete.mutationOptions());

  function apply(id: string) {
    setChosen(id);
    const m = saved.find((s) => s.id === id);
    if (!m) return;
    onMapping(applySavedMapping(kind, file.shape.headers, m.fields));
    onOptions({ ...options, ...savedOptions(m.options) });
    toast.success(`Mapping “${m.name}” applied`);
  }

  return (
    <div className="flex flex-col gap-3 rounded-lg border bg-muted/30 p-3 sm:flex-row sm:flex-wrap sm:items-end">
      <label className="grid min-w-0 gap-1.5 text-sm sm:w-72">
        <span className="font-medium">Use a saved mapping</span>
        <NativeSelect
          className="w-full min-w-0 max-w-full"
          value={chosen}
          disabled={list.isPending || !saved.length}
          onChange={(e) => apply(e.target.value)}
        >
          <option value="">
            {list.isPending ? "Loading…" : saved.length ? "Choose one…" : "None saved yet"}
          </option>
          {saved.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </NativeSelect>
      </label>
      <div className="flex flex-wrap gap-2">
        {can({ import: ["create"] }) ? (
          <>
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                setName(current?.name ?? file.source?.label ?? file.name.replace(/\.(csv|txt|tsv)$/i, ""));
                setNameError(null);
                setSaving(true);
              }}
            >
              <Save className="size-4" /> Save this mapping…
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={!current}
              onClick={() => setDeleting(true)}
              aria-label={current ? `Delete saved mapping ${current.name}` : "Delete saved mapping"}
            >
              <Trash2 className="size-4" /> Delete
            </Button>
          </>
        ) : null}
      </div>
      {list.error ? (
        <Alert variant="destructive" className="sm:basis-full">
          <AlertDescription>{errorInfo(list.error).message}</AlertDescription>
        </Alert>
      ) : null}
      <ConfirmDialog
        open={saving}
        onOpenChange={setSaving}
        title="Save this mapping"
        description="Saved by column name, with the day order, decimal mark and matching choice: the next file with these columns maps itself, whatever their order. A mapping with the same name is replaced."
        confirmLabel="Save mapping"
        canConfirm={!!name.trim()}
        onConfirm={async () => {
          try {
            const m = await client.imports.mappings.save.mutate({
              kind,
              name: name.trim(),
              fields: mappingToSave(file.shape.headers, mapping),
              options: {
                dateOrder: options.dateOrder,
                decimal: options.decimal,
                matchPolicy: options.matchPolicy,
              },
            });
            await refresh();
            if (m) setChosen(m.id);
            toast.success(`Mapping “${name.trim()}” saved`);
          } catch (e) {
            const info = errorInfo(e);
            setNameError(info.fields.name ?? null);
            throw e;
          }
        }}
      >
        <Field label="Name" required error={nameError}>
          <Input value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
        </Field>
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete the mapping “${current?.name ?? ""}”?`}
        description="Files already imported keep their columns; only the saved mapping goes."
        confirmLabel="Delete mapping"
        destructive
        onConfirm={async () => {
          if (!current) return;
          await remove.mutateAsync({ id: current.id });
          setChosen("");
          await refresh();
          toast.success(`Mapping “${current.name}” deleted`);
        }}
      />
    </div>
  );
}
