/**
 * The two retention windows and the donor segments they define: dashboard.retention counts them
 * and donations.list's `segment` filter lists their gifts (worker/donations/list-queries.ts), so
 * a tile and the list it links to draw the same line.
 */
import { COUNTED_SQL } from "@core/status";
import { addDays, localDay, startOfLocalDay } from "@core/time";

/**
 * The two retention windows, as whole local days of the organization (so the dashboard's tiles and
 * the /donations list they link to draw the same line):
 *   last 12 months  = the 365 local days ending today, [today − 364, today];
 *   previous 12     = the 365 local days before that,  [today − 729, today − 365].
 * Retained donors gave a counted gift in the previous 12 months and again in the last 12; lapsed
 * donors gave in the previous 12 and not since (LYBUNT: "last year but unfortunately not this").
 * Retention rate = retained / (retained + lapsed). Refunded and test gifts never count (domain.md §4.1).
 */
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

/**
 * SQL: the row's donor is in the segment as of now (binds: org id, priorFromMs, recentFromMs,
 * recentFromMs — see `segmentParams`).
 */
export function segmentSql(segment: "retained" | "lapsed", alias = "d") {
  return `${alias}.donor_id IN (SELECT p.donor_id FROM donation p WHERE p.organization_id = ? AND ${COUNTED_SQL("p")}
      AND p.donor_id IS NOT NULL AND p.donated_at >= ? AND p.donated_at < ?
      AND ${segment === "lapsed" ? "NOT " : ""}EXISTS (SELECT 1 FROM donation y WHERE y.donor_id = p.donor_id AND ${COUNTED_SQL("y")} AND y.donated_at >= ?))`;
}

export function segmentParams(orgId: string, timeZone: string, now = Date.now()) {
  const w = retentionWindows(timeZone, now);
  return [orgId, w.priorFromMs, w.recentFromMs, w.recentFromMs];
}
