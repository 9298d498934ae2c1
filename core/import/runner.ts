/** The browser's side of an import (decision 028); the API calls are given, so tests and bench reuse it. */
import { firstDataRow, IMPORT_BATCH_ROWS, type ImportRow } from "./batch.ts";
import type { ImportOutcome } from "./fields.ts";
import { type ImportDelimiter, rowBatches } from "./read.ts";

export interface ImportProgress {
  done: number;
  total: number;
  rowsPerSecond: number;
  /** Null until a batch has landed. */
  secondsLeft: number | null;
}

export interface Counts {
  donorsCreated: number;
  donorsUpdated: number;
  donorsMatched: number;
  giftsCreated: number;
  campaignsCreated: number;
  rowsSkipped: number;
  rowsInvalid: number;
}

function speed(started: number, done: number, total: number, now: number): ImportProgress {
  const seconds = (now - started) / 1000;
  const rowsPerSecond = seconds > 0 ? done / seconds : 0;
  return {
    done,
    total,
    rowsPerSecond,
    secondsLeft: rowsPerSecond > 0 ? Math.max(0, (total - done) / rowsPerSecond) : null,
  };
}

interface CommitAnswer {
  nextRow: number;
  rejected: { row: number; reason: string }[];
}

/** Sends rows from `nextRow` on until the end or `signal`; the batch in flight finishes (one D1 batch). */
export async function sendRows(o: {
  text: string;
  delimiter: ImportDelimiter;
  firstRowIsData?: boolean;
  columns: number;
  nextRow: number;
  totalRows: number;
  commit: (rows: ImportRow[]) => Promise<CommitAnswer>;
  onProgress?: (p: ImportProgress, rejected: CommitAnswer["rejected"]) => void;
  signal?: AbortSignal;
  batchRows?: number;
  now?: () => number;
}): Promise<{ complete: boolean; nextRow: number }> {
  const now = o.now ?? (() => Date.now());
  const started = now();
  const first = o.nextRow;
  const firstData = firstDataRow(o);
  let nextRow = o.nextRow;
  for await (const rows of rowBatches(o.text, {
    delimiter: o.delimiter,
    firstRowIsData: o.firstRowIsData,
    size: o.batchRows ?? IMPORT_BATCH_ROWS,
    from: o.nextRow,
    columns: o.columns,
  })) {
    if (o.signal?.aborted) return { complete: false, nextRow };
    const answer = await o.commit(rows);
    nextRow = answer.nextRow;
    const done = nextRow - firstData;
    const sent = nextRow - first;
    const p = speed(started, sent, o.totalRows - (first - firstData), now());
    o.onProgress?.({ ...p, done, total: o.totalRows }, answer.rejected);
  }
  return { complete: true, nextRow };
}

type MatchedBy = "email" | "name_postal_code" | "external_id";

export interface CheckedRow {
  row: number;
  outcome: ImportOutcome;
  reason?: string;
  note?: string;
  label?: string | null;
  donor?: { id: string; isNew: boolean; matchedBy?: MatchedBy; existing?: { name: string | null } };
  donorKeys: string[];
}

/** A row the dry run gives to a donor the organization has, by something weaker than an e-mail. */
export interface CheckedMatch {
  row: number;
  label: string | null;
  donorId: string;
  donorName: string | null;
  by: Exclude<MatchedBy, "email">;
}

/** The dry run's tally; a batch cannot see donors an earlier one would create, so new donors dedupe here. */
export class CheckTally {
  readonly outcomes: Record<ImportOutcome, number> = { new: 0, matched: 0, skipped: 0, invalid: 0 };
  newDonors = 0;
  /** Rows given to a donor this file brings twice (a donations file: the donor is created once). */
  matchedDonors = 0;
  /** The organization's donors the file's rows go to, each once (the result's "Donors matched"). */
  readonly existingDonors = new Set<string>();
  campaignsNew = new Set<string>();
  readonly problems: { row: number; reason: string; label: string | null }[] = [];
  readonly notes: { row: number; note: string; label: string | null }[] = [];
  /** Matches by name + postal code or old ID, for the user to refuse one by one; `weakMatchCount` counts all. */
  readonly weakMatches: CheckedMatch[] = [];
  weakMatchCount = 0;
  private readonly seen = new Map<string, number>();
  private readonly kind: "donors" | "donations";
  private readonly keep: number;

  // Plain fields, not parameter properties: Node runs this file with types stripped (the bench).
  constructor(kind: "donors" | "donations", keep = 200) {
    this.kind = kind;
    this.keep = keep;
  }

  add(rows: readonly (CheckedRow & { campaign?: { isNew: boolean; title: string } })[]) {
    for (const r of rows) {
      let outcome = r.outcome;
      let note = r.note;
      if (r.donor?.isNew) {
        const earlier = r.donorKeys.map((k) => this.seen.get(k)).find((x) => x !== undefined);
        if (earlier !== undefined) {
          if (this.kind === "donors") {
            outcome = "matched";
            note = `Same donor as row ${earlier}`;
          }
          this.matchedDonors++;
        } else {
          this.newDonors++;
          for (const k of r.donorKeys) this.seen.set(k, r.row);
        }
      } else if (r.donor?.existing) {
        this.existingDonors.add(r.donor.id);
        const by = r.donor.matchedBy;
        if (by && by !== "email" && outcome !== "invalid") {
          this.weakMatchCount++;
          if (this.weakMatches.length < this.keep)
            this.weakMatches.push({
              row: r.row,
              label: r.label ?? null,
              donorId: r.donor.id,
              donorName: r.donor.existing.name,
              by,
            });
        }
      } else if (r.donor) this.matchedDonors++;
      if (r.campaign?.isNew) this.campaignsNew.add(r.campaign.title.toLowerCase());
      this.outcomes[outcome]++;
      if ((outcome === "invalid" || outcome === "skipped") && r.reason && this.problems.length < this.keep)
        this.problems.push({ row: r.row, reason: r.reason, label: r.label ?? null });
      if (note && this.notes.length < this.keep)
        this.notes.push({ row: r.row, note, label: r.label ?? null });
    }
  }
}
