/**
 * The dashboard from its rollups (decision 032): every statement reads analytics_facet,
 * donor_period, org_daily or donation_daily_totals over the whole months of a range and the days
 * left at its ends (core/analytics.ts rangeParts), never the donations, so a cold answer costs the
 * same for 7 days and for ten years. Two figures are estimates with a stated bound (the median, and
 * distinct donors above SKETCH_K); the service marks them and keeps the exact path one click away.
 */
import { rangeParts, SKETCH_K } from "@core/analytics";
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../db/databases";

/**
 * A range's parts as one JSON parameter: [grain, first, last] for its whole months (grain 'm') and
 * its edge days ('d'). One parameter and json_each instead of one SQL arm per part: D1 caps the
 * terms of a compound SELECT.
 */
export function partsOf(from: string, to: string) {
  const { months, days } = rangeParts(from, to);
  return JSON.stringify([...(months ? [["m", ...months]] : []), ...days.map((d) => ["d", ...d])]);
}
export type Parts = string;

/**
 * The range's periods as a table p(grain, period): its months (enumerated between the range's and
 * the data's first and last: all time has no bounds of its own; the fixed keys of gifts outside
 * years 1000–9998 are left out), then its days.
 */
function periodsCte(currencies: string) {
  const edge = (fn: "MIN" | "MAX") =>
    `(SELECT ${fn}(period) FROM donor_period WHERE organization_id = ?1 AND currency IN ${currencies} AND grain = 'm' AND period >= '1000' AND period < '9999')`;
  return `RECURSIVE
    r(grain, lo, hi) AS (SELECT value ->> 0, CASE WHEN value ->> 0 = 'm' THEN MAX(value ->> 1, COALESCE(${edge("MIN")}, '9999')) ELSE value ->> 1 END,
                                CASE WHEN value ->> 0 = 'm' THEN MIN(value ->> 2, COALESCE(${edge("MAX")}, '0000')) ELSE value ->> 2 END
                           FROM json_each(?3)),
    p(grain, period, hi) AS (SELECT grain, lo, hi FROM r WHERE lo <= hi
                             UNION ALL SELECT grain, CASE WHEN grain = 'm' THEN substr(date(period || '-01', '+1 month'), 1, 7) ELSE date(period, '+1 day') END, hi
                               FROM p WHERE period < hi)`;
}

/**
 * The bottom-k sample of the range's donors in `currencies` (a SQL list over ?2 or a subquery):
 * the SKETCH_K donors with the smallest sketch values, and whether each gave one-time and recurring
 * gifts there. A period holding k donors bounds the sample by its k-th smallest value, so each
 * period is read only up to the bound (the tightest bound comes from a month when there is one).
 */
function sampleSql(currencies: string) {
  return `WITH ${periodsCte(currencies)},
    kth AS (SELECT MIN((SELECT x.sketch FROM donor_period x WHERE x.organization_id = ?1 AND x.currency = cur.c AND x.grain = p.grain AND x.period = p.period
                         ORDER BY x.sketch LIMIT 1 OFFSET ${SKETCH_K - 1})) AS t
              FROM p CROSS JOIN cur
             WHERE p.grain = CASE WHEN EXISTS (SELECT 1 FROM p WHERE grain = 'm') THEN 'm' ELSE 'd' END),
    u AS (SELECT x.donor_id, x.sketch, x.gift_count AS g, x.one_time_count AS o
            FROM p CROSS JOIN cur CROSS JOIN donor_period x
              ON x.organization_id = ?1 AND x.currency = cur.c AND x.grain = p.grain AND x.period = p.period
             AND x.sketch <= COALESCE((SELECT t FROM kth), 9007199254740991)),
    s AS (SELECT donor_id, sketch, MAX(o > 0) AS ot, MAX(g > o) AS rc FROM u GROUP BY donor_id ORDER BY sketch, donor_id LIMIT ${SKETCH_K})`;
}

export interface SampleRow {
  n: number;
  ot: number | null;
  rc: number | null;
  kth: number | null;
}

/** Distinct donors of the range in `currency` as a sample (n, one-time and recurring among it, the k-th value). */
export function donorSample(db: Database, orgId: string, currency: string, parts: Parts) {
  return db
    .prepare(
      `${sampleSql("(?2)").replace("WITH RECURSIVE", "WITH RECURSIVE cur(c) AS (SELECT ?2),")}
       SELECT COUNT(*) AS n, SUM(ot) AS ot, SUM(rc) AS rc, MAX(sketch) AS kth FROM s`,
    )
    .bind(orgId, currency, parts);
}

/**
 * Retention's sample (dashboard.retention): the donors of the previous 12 months in any currency
 * (`parts`), and how many of the sample gave a counted gift again from `recentFromMs` on.
 */
export function retentionSample(db: Database, orgId: string, parts: Parts, recentFromMs: number) {
  return db
    .prepare(
      `${sampleSql("(SELECT c FROM cur)").replace(
        "WITH RECURSIVE",
        "WITH RECURSIVE cur(c) AS (SELECT DISTINCT currency FROM org_daily WHERE organization_id = ?1 AND campaign_id = '*'),",
      )}
       SELECT COUNT(*) AS n, MAX(sketch) AS kth,
              SUM(EXISTS (SELECT 1 FROM donation y WHERE y.donor_id = s.donor_id AND y.donated_at >= ?4 AND ${COUNTED_SQL("y")})) AS retained
         FROM s`,
    )
    .bind(orgId, "", parts, recentFromMs);
}

/** The facets of the range, summed per facet and key: method, kind, the net histogram, refunds. */
export function facetTotals(db: Database, orgId: string, currency: string, parts: Parts) {
  return db
    .prepare(
      `SELECT f.facet, f.key, SUM(f.gift_count) AS count, SUM(f.amount_minor) AS amount
         FROM json_each(?3) r CROSS JOIN analytics_facet f
           ON f.organization_id = ?1 AND f.currency = ?2 AND f.facet IN ('method', 'kind', 'net', 'refund')
          AND f.grain = r.value ->> 0 AND f.period BETWEEN r.value ->> 1 AND r.value ->> 2
        GROUP BY f.facet, f.key HAVING SUM(f.gift_count) != 0`,
    )
    .bind(orgId, currency, parts);
}

/** The five campaigns that raised most: months from analytics_facet, the edge days from org_daily. */
export function topCampaigns(db: Database, orgId: string, currency: string, parts: Parts) {
  return db
    .prepare(
      `SELECT c.id, c.title, ?2 AS currency, SUM(x.raised) AS raised, SUM(x.n) AS count
         FROM (SELECT f.key AS cid, f.amount_minor AS raised, f.gift_count AS n
                 FROM json_each(?3) r CROSS JOIN analytics_facet f
                   ON f.organization_id = ?1 AND f.currency = ?2 AND f.facet = 'campaign' AND f.grain = 'm'
                  AND r.value ->> 0 = 'm' AND f.period BETWEEN r.value ->> 1 AND r.value ->> 2
               UNION ALL
               SELECT o.campaign_id, o.raised_minor, o.donation_count
                 FROM json_each(?3) r CROSS JOIN org_daily o
                   ON o.organization_id = ?1 AND r.value ->> 0 = 'd' AND o.day BETWEEN r.value ->> 1 AND r.value ->> 2
                WHERE o.currency = ?2 AND o.campaign_id NOT IN ('*', '')) x
         JOIN campaign c ON c.id = x.cid
        GROUP BY c.id HAVING SUM(x.n) > 0 ORDER BY raised DESC, c.id LIMIT 5`,
    )
    .bind(orgId, currency, parts);
}

/** How many top donors the dashboard lists. */
export const TOP_DONORS = 5;

/**
 * The top donors of the range: the candidates are each period's five largest givers (ties
 * included), ranked by their totals over the whole range. `bound` is the sum over periods of each
 * period's sixth largest amount: every donor who is no candidate is outranked by five candidates in
 * each period, so gave at most that; the list is exact when its last total reaches the bound (the
 * service says ≈ otherwise).
 */
export function topDonors(db: Database, orgId: string, currency: string, parts: Parts) {
  const nth = (alias: string, offset: number) =>
    `(SELECT y.amount_minor FROM donor_period y WHERE y.organization_id = ?1 AND y.currency = ?2 AND y.grain = ${alias}.grain AND y.period = ${alias}.period
       ORDER BY y.amount_minor DESC LIMIT 1 OFFSET ${offset})`;
  return db
    .prepare(
      `WITH ${periodsCte("(?2)")},
         cand AS (SELECT DISTINCT x.donor_id FROM p CROSS JOIN donor_period x
                    ON x.organization_id = ?1 AND x.currency = ?2 AND x.grain = p.grain AND x.period = p.period
                   AND x.amount_minor >= COALESCE(${nth("p", TOP_DONORS - 1)}, 0)),
         tot AS (SELECT c.donor_id, SUM(x.amount_minor) AS total, SUM(x.gift_count) AS gifts
                   FROM cand c CROSS JOIN p CROSS JOIN donor_period x
                     ON x.organization_id = ?1 AND x.currency = ?2 AND x.grain = p.grain AND x.period = p.period AND x.donor_id = c.donor_id
                  GROUP BY c.donor_id ORDER BY total DESC, c.donor_id LIMIT ${TOP_DONORS})
       SELECT dn.id, COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, 'Anonymized') AS name,
              dn.company, tot.total, tot.gifts, (SELECT COALESCE(SUM(COALESCE(${nth("p", TOP_DONORS)}, 0)), 0) FROM p) AS bound
         FROM tot JOIN donor dn ON dn.id = tot.donor_id ORDER BY tot.total DESC, tot.donor_id`,
    )
    .bind(orgId, currency, parts);
}

/** Gifts by status (live, not in the trash) over the local days from..to, from donation_daily_totals. */
export function statusTotals(db: Database, orgId: string, currency: string, from: string, to: string) {
  return db
    .prepare(
      `SELECT status, SUM(donation_count) AS count, SUM(amount_minor) AS amount FROM donation_daily_totals
        WHERE organization_id = ?1 AND day BETWEEN ?3 AND ?4 AND currency = ?2 AND mode = 'live' AND trashed = 0
        GROUP BY status HAVING SUM(donation_count) > 0 ORDER BY count DESC`,
    )
    .bind(orgId, currency, from, to);
}

/** Whether the organization's rollups are built in its zone (decision 013's state row). */
export function rollupsBuilt(db: Database, orgId: string, timeZone: string) {
  return db
    .prepare(
      "SELECT EXISTS (SELECT 1 FROM donation_daily_state WHERE organization_id = ?1 AND time_zone = ?2) AS built",
    )
    .bind(orgId, timeZone);
}
