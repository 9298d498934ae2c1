/**
 * Bulk actions on a list (decision 024): what both sides agree on. "Select all N matching" asks
 * the server for the ids the filter matches at that moment (at most `MATCHING_MAX`, more is a 422
 * naming the cap), and the portal sends them to a bulk procedure `BULK_MAX_IDS` at a time, each
 * call one D1 batch answering per id whether it changed or was skipped and why.
 */
// zod/mini and a pure schema, as core/schemas.ts: the portal imports this module too, and the
// classic API with a top-level schema put all of zod into the entry chunk (+6.9 KiB gzip on /login).
import { z } from "zod/mini";
import { formatCount } from "./labels";

/** The most rows one "Select all N matching" may take; more answers 422 with this number. */
export const MATCHING_MAX = 10_000;

/**
 * The most ids one bulk call takes (and the portal's batch): a donation change is about ten
 * statements, so a call stays near a thousand statements in its one D1 batch.
 */
export const BULK_MAX_IDS = 100;

/** The ids of one bulk call: 1 to BULK_MAX_IDS distinct ids (duplicates are dropped). */
export const bulkIds = /* @__PURE__ */ (() =>
  z.pipe(
    z
      .array(z.string().check(z.minLength(1), z.maxLength(64)))
      .check(
        z.minLength(1, "Choose at least one row"),
        z.maxLength(BULK_MAX_IDS, `At most ${BULK_MAX_IDS} rows per call`),
      ),
    z.transform((ids: string[]) => [...new Set(ids)]),
  ))();

/** One id's outcome in a bulk call: changed, or skipped with the reason a single change would give. */
export type BulkOutcome = { id: string; changed: true } | { id: string; changed: false; reason: string };

/** "1,230 changed, 10 skipped: the donation changed meanwhile…" — the portal's summary of a run. */
export function bulkSummary(
  outcomes: readonly BulkOutcome[],
  verb = "changed",
  notDone = 0,
): { changed: number; skipped: number; text: string } {
  const changed = outcomes.filter((o) => o.changed).length;
  const reasons = new Map<string, number>();
  for (const o of outcomes) if (!o.changed) reasons.set(o.reason, (reasons.get(o.reason) ?? 0) + 1);
  const skipped = outcomes.length - changed;
  const why = [...reasons]
    .sort((a, b) => b[1] - a[1])
    .map(([r, c]) => {
      const reason = r.charAt(0).toLowerCase() + r.slice(1);
      return reasons.size > 1 ? `${reason} (${formatCount(c)})` : reason;
    })
    .join("; ");
  let text = `${formatCount(changed)} ${verb}`;
  if (skipped) text += `, ${formatCount(skipped)} skipped: ${why}`;
  if (notDone) text += `; cancelled before ${formatCount(notDone)} more`;
  return { changed, skipped, text };
}
