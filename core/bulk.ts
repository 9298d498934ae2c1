/** Bulk actions on a list (decision 024): the limits and outcomes both sides agree on. */
// zod/mini in a pure closure: the portal's entry chunk imports this module (decision 012).
import { z } from "zod/mini";
import { formatCount } from "./labels";

/** The most rows one "Select all N matching" may take; more answers 422 with this number. */
export const MATCHING_MAX = 10_000;

/** Ids per bulk call: a donation change is about ten statements, so one D1 batch stays near a thousand. */
export const BULK_MAX_IDS = 100;

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

/** Skipped with the reason a single change would give. */
export type BulkOutcome = { id: string; changed: true } | { id: string; changed: false; reason: string };

/** "1,230 changed, 10 skipped: the donation changed meanwhile…" */
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
