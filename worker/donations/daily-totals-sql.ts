/**
 * The SQL of a donation_daily_totals rebuild (decision 013), shared by rebuildRollups and the seed
 * (scripts/seed-domain.mjs imports this file directly: no imports without an extension here).
 */
import {
  DAY_KEY_AFTER,
  DAY_KEY_BEFORE,
  DAY_KEY_FROM_MS,
  DAY_KEY_UNTIL_MS,
  offsetSpans,
} from "../../core/time.ts";

/** [start, end) in UTC ms, the zone's offset there, or a fixed day key (instants outside years 1000–9999). */
export type DaySpan = [number, number, number, string | null];

/**
 * Spans for a rebuild: the zone's offsets over [from, until) and the two fixed-key stretches. The
 * stretches between are not covered; the rebuild's last statement fails if a gift lies there.
 */
export function dailySpans(from: number, until: number, timeZone: string): DaySpan[] {
  return [
    [-Number.MAX_SAFE_INTEGER, DAY_KEY_FROM_MS, 0, DAY_KEY_BEFORE],
    ...offsetSpans(from, until, timeZone).map(([s, e, o]): DaySpan => [s, e, o, null]),
    [DAY_KEY_UNTIL_MS, Number.MAX_SAFE_INTEGER, 0, DAY_KEY_AFTER],
  ];
}

/**
 * The local day ('YYYY-MM-DD') of the instant `at` under the span `s` (a DaySpan as columns b, e,
 * o, k): local midnight of at + offset, floored (also before 1970), or the span's fixed key. The one
 * place SQL turns a gift's instant into its day; core/time.ts `dayKey` is the same in JavaScript.
 */
export function localDaySql(at: string, s = "s"): string {
  const local = `(${at} + ${s}.o)`;
  return `COALESCE(${s}.k, date((${local} - ((${local} % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch'))`;
}

/** The DaySpan[] JSON parameter `?p` as a table s(b, e, o, k), for a WITH clause. */
export const spansTable = (p: number) =>
  `s(b, e, o, k) AS (
              SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')
                FROM json_each(?${p}))`;

/**
 * Statements with the values they bind, in order: org (organization id), spans (JSON of DaySpan[])
 * and tz. One batch (one transaction): the state row goes, the rows are recomputed, and the state
 * row comes back naming `tz` only if every donation of the organization fell in a span, else its
 * NOT NULL fails the batch. Each span seeks the (organization_id, donated_at, …) covering index.
 */
export function dailyRebuildSql(): { sql: string; args: ("org" | "spans" | "tz")[] }[] {
  const day = localDaySql("d.donated_at");
  return [
    { sql: "DELETE FROM donation_daily_state WHERE organization_id = ?1", args: ["org"] },
    { sql: "DELETE FROM donation_daily_totals WHERE organization_id = ?1", args: ["org"] },
    {
      sql: `INSERT INTO donation_daily_totals (organization_id, day, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
            WITH ${spansTable(2)}
            SELECT ?1, ${day}, d.currency, d.status, d.mode, d.trashed_at IS NOT NULL,
                   COUNT(*), SUM(d.amount_minor), SUM(d.refunded_minor)
              FROM s CROSS JOIN donation d ON d.organization_id = ?1 AND d.donated_at >= s.b AND d.donated_at < s.e
             GROUP BY 2, 3, 4, 5, 6`,
      args: ["org", "spans"],
    },
    {
      sql: `INSERT INTO donation_daily_state (organization_id, time_zone)
            SELECT ?1, CASE WHEN (SELECT COALESCE(SUM(donation_count), 0) FROM donation_daily_totals WHERE organization_id = ?1)
                               = (SELECT COUNT(*) FROM donation WHERE organization_id = ?1) THEN ?2 END`,
      args: ["org", "tz"],
    },
  ];
}
