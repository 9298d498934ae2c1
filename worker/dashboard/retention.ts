// dashboard.retention and donations.list's `segment` filter (worker/donations/list-queries.ts) share
// these windows, so a tile and the list it links to draw the same line.
import { COUNTED_SQL } from "@core/status";
import { addDays, localDay, startOfLocalDay } from "@core/time";

// Whole local days: last 12 months [today − 364, today], previous 12 [today − 729, today − 365].
// Retained donors gave a counted gift in both; lapsed ones in the previous 12 only (LYBUNT).
export function retentionWindows(timeZone: string, now = Date.now()) {
  const today = localDay(now, timeZone);
  const recentFrom = addDays(today, -364);
  const priorFrom = addDays(today, -729);
  const priorTo = addDays(today, -365);
  return {
    today,
    recentFrom,
    priorFrom,
    priorTo,
    recentFromMs: startOfLocalDay(recentFrom, timeZone),
    priorFromMs: startOfLocalDay(priorFrom, timeZone),
  };
}
export type RetentionWindows = ReturnType<typeof retentionWindows>;

/** The row's donor is in the segment as of now; its binds are `segmentParams`. */
export function segmentSql(segment: "retained" | "lapsed", alias = "d") {
  return `${alias}.donor_id IN (SELECT p.donor_id FROM donation p WHERE p.organization_id = ? AND ${COUNTED_SQL("p")}
      AND p.donor_id IS NOT NULL AND p.donated_at >= ? AND p.donated_at < ?
      AND ${segment === "lapsed" ? "NOT " : ""}EXISTS (SELECT 1 FROM donation y WHERE y.donor_id = p.donor_id AND ${COUNTED_SQL("y")} AND y.donated_at >= ?))`;
}

export function segmentParams(orgId: string, timeZone: string, now = Date.now()) {
  const w = retentionWindows(timeZone, now);
  return [orgId, w.priorFromMs, w.recentFromMs, w.recentFromMs];
}
