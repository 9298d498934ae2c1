/**
 * The import itself, as the page runs it: imports.start (or an unfinished import to resume), then
 * the rows a batch per call (core/import/runner.ts sendRows: the commit loop, its speed and time
 * left), then imports.finish. Stop ends after the batch in flight (each batch is one D1 batch and
 * lands whole); the import stays resumable from its next row.
 */
import type { ImportKind, ImportOptions } from "@core/import/fields";
import { type ImportProgress, sendRows } from "@core/import/runner";
import { useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import type { RouterOutputs } from "~/lib/api-types";
import { errorInfo } from "~/lib/format";
import { useTRPCClient } from "~/lib/trpc";
import type { LoadedFile } from "./file";
import type { Mapping } from "./logic";

export type PresentedImport = RouterOutputs["imports"]["byId"];

type RunPhase = "idle" | "starting" | "sending" | "stopping" | "stopped" | "finishing" | "done" | "failed";

export interface RunState {
  phase: RunPhase;
  imp: PresentedImport | null;
  progress: ImportProgress | null;
  error: string | null;
}

const IDLE: RunState = { phase: "idle", imp: null, progress: null, error: null };

export function useImportRun() {
  const client = useTRPCClient();
  const qc = useQueryClient();
  const [state, setState] = React.useState<RunState>(IDLE);
  const abort = React.useRef<AbortController | null>(null);
  React.useEffect(() => () => abort.current?.abort(), []);

  const send = React.useCallback(
    async (imp: PresentedImport, file: LoadedFile) => {
      const controller = new AbortController();
      abort.current = controller;
      let latest = imp;
      setState({
        phase: "sending",
        imp,
        error: null,
        progress: { done: imp.rowsDone, total: imp.totalRows, rowsPerSecond: 0, secondsLeft: null },
      });
      try {
        const sent = await sendRows({
          text: file.text,
          delimiter: file.delimiter,
          firstRowIsData: file.firstRowIsData,
          columns: file.shape.headers.length,
          nextRow: imp.nextRow,
          totalRows: imp.totalRows,
          signal: controller.signal,
          commit: async (rows) => {
            const answer = await client.imports.commit.mutate({ id: imp.id, rows });
            latest = answer.import;
            return answer;
          },
          onProgress: (progress) => setState((s) => ({ ...s, progress, imp: latest })),
        });
        if (sent.complete) {
          setState((s) => ({ ...s, phase: "finishing" }));
          const done = await client.imports.finish.mutate({ id: imp.id });
          setState((s) => ({ ...s, phase: "done", imp: done }));
        } else {
          const now = await client.imports.byId.query({ id: imp.id });
          setState((s) => ({ ...s, phase: "stopped", imp: now }));
        }
      } catch (e) {
        setState((s) => ({ ...s, phase: "failed", imp: latest, error: errorInfo(e).message }));
      } finally {
        if (abort.current === controller) abort.current = null;
        void qc.invalidateQueries();
      }
    },
    [client, qc],
  );

  /** A new import of `file` with this mapping and these options. */
  const start = React.useCallback(
    async (kind: ImportKind, file: LoadedFile, mapping: Mapping, options: ImportOptions) => {
      setState({ ...IDLE, phase: "starting" });
      let imp: PresentedImport;
      try {
        imp = await client.imports.start.mutate({
          kind,
          fileName: file.name.slice(0, 255),
          fileHash: file.hash,
          fileSize: file.size,
          totalRows: file.totalRows,
          headers: file.shape.headers,
          mapping,
          options,
        });
      } catch (e) {
        setState({ ...IDLE, phase: "failed", error: errorInfo(e).message });
        return;
      }
      await send(imp, file);
    },
    [client, send],
  );

  /** Goes on from where the import stands now (after a stop, a failure, or an unfinished import found). */
  const resume = React.useCallback(
    async (id: string, file: LoadedFile) => {
      setState((s) => ({ ...s, phase: "starting", error: null }));
      try {
        await send(await client.imports.byId.query({ id }), file);
      } catch (e) {
        setState((s) => ({ ...s, phase: "failed", error: errorInfo(e).message }));
      }
    },
    [client, send],
  );

  const stop = React.useCallback(() => {
    abort.current?.abort();
    setState((s) => (s.phase === "sending" ? { ...s, phase: "stopping" } : s));
  }, []);

  const reset = React.useCallback(() => {
    abort.current?.abort();
    setState(IDLE);
  }, []);

  return { state, start, resume, stop, reset };
}
