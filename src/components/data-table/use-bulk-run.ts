import { BULK_MAX_IDS, type BulkOutcome } from "@core/bulk";
import * as React from "react";

/**
 * The bulk bar's "a run is going on" switch (src/components/data-table/bulk-bar.tsx): while a run
 * is, Clear is disabled, for clearing would unmount the actions and their Cancel with the run still
 * sending batches.
 */
export const BulkRunningContext = React.createContext<((running: boolean) => void) | null>(null);

/** Where a bulk run stands: how many of the chosen rows were sent and answered. */
export interface BulkProgressState {
  done: number;
  total: number;
  cancelling: boolean;
}

interface BulkRunResult<O extends BulkOutcome> {
  outcomes: O[];
  /** Rows never sent: the user cancelled, or a call failed (`error`). */
  notDone: number;
  error?: unknown;
}

/**
 * Runs a bulk action over the ids the user chose, BULK_MAX_IDS per call and one call at a time
 * (decision 024): progress after each call, and Cancel stops before the next one (a call in
 * flight finishes; it is one D1 batch). Only the given ids are ever sent.
 */
export function useBulkRun() {
  const [progress, setProgress] = React.useState<BulkProgressState | null>(null);
  const cancelled = React.useRef(false);
  const setRunning = React.useContext(BulkRunningContext);
  React.useEffect(() => {
    setRunning?.(progress !== null);
  }, [progress, setRunning]);
  React.useEffect(() => () => setRunning?.(false), [setRunning]);
  const run = React.useCallback(
    async <O extends BulkOutcome>(
      ids: readonly string[],
      act: (batch: string[]) => Promise<O[]>,
      size = BULK_MAX_IDS,
    ): Promise<BulkRunResult<O>> => {
      cancelled.current = false;
      const outcomes: O[] = [];
      const total = ids.length;
      setProgress({ done: 0, total, cancelling: false });
      try {
        for (let i = 0; i < total; i += size) {
          if (cancelled.current) return { outcomes, notDone: total - i };
          outcomes.push(...(await act(ids.slice(i, i + size))));
          setProgress((p) => ({ done: Math.min(i + size, total), total, cancelling: !!p?.cancelling }));
        }
        return { outcomes, notDone: 0 };
      } catch (error) {
        return { outcomes, notDone: total - outcomes.length, error };
      } finally {
        setProgress(null);
      }
    },
    [],
  );
  const cancel = React.useCallback(() => {
    cancelled.current = true;
    setProgress((p) => (p ? { ...p, cancelling: true } : p));
  }, []);
  return { progress, run, cancel };
}
