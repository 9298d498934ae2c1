// The dashboard from its rollups (decision 032): a cold answer costs about the same for 7 days and for
// ten years. The median and distinct donors above SKETCH_K are estimates with a stated bound.
import { rangeParts, SKETCH_K, SKETCH_SPACE, signedRangeParts } from "@core/analytics";
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../db/databases";
import { ORG_SCOPE, type RollupScope } from "../ledger/rollup-sql";

/** One JSON parameter read with json_each, not one SQL arm per part: D1 caps a compound SELECT's terms. */
export function partsOf(from: string, to: string) {
  const { months, days } = rangeParts(from, to);
  return JSON.stringify([...(months ? [["m", ...months]] : []), ...days.map((d) => ["d", ...d])]) as Parts;
}
/** A range's periods, each once: what a set of donors (the sample, top donors) is read over. */
type Parts = string & { readonly read: "each period once" };

/** A mostly covered edge month is read as the month less its other days, so only a sum may read it. */
export function sumPartsOf(from: string, to: string) {
  return JSON.stringify(signedRangeParts(from, to)) as SumParts;
}
type SumParts = string & { readonly read: "signed, for sums" };

/** SumParts (?3) parsed once: a sign taken from the JSON inside the SUM is parsed again for every row. */
const SIGNED_PARTS = `r AS MATERIALIZED (SELECT value ->> 0 AS grain, value ->> 1 AS lo, value ->> 2 AS hi, value ->> 3 AS sign FROM json_each(?3))`;

// p(grain, period): months bounded by the data's first and last too (all time has no bounds of its
// own; fixed keys outside years 1000–9998 are left out), then the days.
function periodsCte(currencies: string, scope: RollupScope) {
  const edge = (fn: "MIN" | "MAX") =>
    `(SELECT ${fn}(period) FROM ${scope.donors} WHERE ${scope.owner} = ?1 AND currency IN ${currencies} AND grain = 'm' AND period >= '1000' AND period < '9999')`;
  return `RECURSIVE
    r(grain, lo, hi) AS (SELECT value ->> 0, CASE WHEN value ->> 0 = 'm' THEN MAX(value ->> 1, COALESCE(${edge("MIN")}, '9999')) ELSE value ->> 1 END,
                                CASE WHEN value ->> 0 = 'm' THEN MIN(value ->> 2, COALESCE(${edge("MAX")}, '0000')) ELSE value ->> 2 END
                           FROM json_each(?3)),
    p(grain, period, hi) AS (SELECT grain, lo, hi FROM r WHERE lo <= hi
                             UNION ALL SELECT grain, CASE WHEN grain = 'm' THEN substr(date(period || '-01', '+1 month'), 1, 7) ELSE date(period, '+1 day') END, hi
                               FROM p WHERE period < hi)`;
}

// The bottom-k sample (decision 032). Sketch values are uniform, so each step goes to about
// t · K / found with a quarter to spare; at SKETCH_SPACE the sample is the whole set.
function sampleSql(currencies: string, scope: RollupScope) {
  const K = SKETCH_K;
  const below = (t: string) => `FROM p CROSS JOIN cur CROSS JOIN ${scope.donors} x
              ON x.${scope.owner} = ?1 AND x.currency = cur.c AND x.grain = p.grain AND x.period = p.period
             AND x.sketch <= ${t}`;
  const found = (t: string) => `(SELECT COUNT(*) FROM (SELECT DISTINCT x.donor_id ${below(t)} LIMIT ${K}))`;
  const start = SKETCH_SPACE / (SKETCH_START / K);
  // The next threshold, written twice: the recursive table may not appear in a subquery.
  const next = `MIN(${SKETCH_SPACE}, CAST(step.t * MIN(64.0, MAX(1.25, ${1.25 * K}.0 / MAX(step.found, 1))) AS INTEGER))`;
  return `WITH ${periodsCte(currencies, scope)},
    step(t, found) AS (SELECT ${start}, ${found(String(start))}
                       UNION ALL
                       SELECT ${next}, ${found(next)} FROM step WHERE step.found < ${K} AND step.t < ${SKETCH_SPACE}),
    u AS (SELECT x.donor_id, x.sketch, x.gift_count AS g, x.one_time_count AS o ${below("(SELECT MAX(t) FROM step)")}),
    -- Grouped in the order it is ranked: one sort (a donor's rows share its sketch).
    s AS (SELECT donor_id, sketch, MAX(o > 0) AS ot, MAX(g > o) AS rc FROM u GROUP BY sketch, donor_id ORDER BY sketch, donor_id LIMIT ${K})`;
}

/** The first threshold: a range of this many donors holds SKETCH_K below it; fewer step up (×64 at most). */
const SKETCH_START = 2 ** 22;

export interface SampleRow {
  n: number;
  ot: number | null;
  rc: number | null;
  kth: number | null;
}

/** The organization's sample (`owner` its id), or a built campaign's (decision 037). */
export function donorSample(db: Database, owner: string, currency: string, parts: Parts, scope = ORG_SCOPE) {
  return db
    .prepare(
      `${sampleSql("(?2)", scope).replace("WITH RECURSIVE", "WITH RECURSIVE cur(c) AS (SELECT ?2),")}
       SELECT COUNT(*) AS n, SUM(ot) AS ot, SUM(rc) AS rc, MAX(sketch) AS kth FROM s`,
    )
    .bind(owner, currency, parts);
}

/** The previous 12 months' donors in any currency, and how many of the sample gave from `recentFromMs` on. */
export function retentionSample(db: Database, orgId: string, parts: Parts, recentFromMs: number) {
  return db
    .prepare(
      `${sampleSql("(SELECT c FROM cur)", ORG_SCOPE).replace(
        "WITH RECURSIVE",
        "WITH RECURSIVE cur(c) AS (SELECT DISTINCT currency FROM org_daily WHERE organization_id = ?1 AND campaign_id = '*'),",
      )}
       SELECT COUNT(*) AS n, MAX(sketch) AS kth,
              SUM(EXISTS (SELECT 1 FROM donation y WHERE y.donor_id = s.donor_id AND y.donated_at >= ?4 AND ${COUNTED_SQL("y")})) AS retained
         FROM s`,
    )
    .bind(orgId, "", parts, recentFromMs);
}

/** A campaign's scope has only the `net` and `refund` facets. */
export function facetTotals(
  db: Database,
  owner: string,
  currency: string,
  parts: SumParts,
  scope = ORG_SCOPE,
) {
  return db
    .prepare(
      `WITH ${SIGNED_PARTS}
       SELECT f.facet, f.key, SUM(f.gift_count * r.sign) AS count, SUM(f.amount_minor * r.sign) AS amount
         FROM r CROSS JOIN ${scope.facets} f
           ON f.${scope.owner} = ?1 AND f.currency = ?2 AND f.facet IN ('method', 'kind', 'net', 'refund')
          AND f.grain = r.grain AND f.period BETWEEN r.lo AND r.hi
        GROUP BY f.facet, f.key HAVING SUM(f.gift_count * r.sign) != 0`,
    )
    .bind(owner, currency, parts);
}

export function topCampaigns(db: Database, orgId: string, currency: string, parts: SumParts) {
  return db
    .prepare(
      `WITH ${SIGNED_PARTS}
       SELECT c.id, c.title, ?2 AS currency, t.raised, t.count
         FROM (SELECT f.key, SUM(f.amount_minor * r.sign) AS raised, SUM(f.gift_count * r.sign) AS count
                 FROM r CROSS JOIN analytics_facet f
                   ON f.organization_id = ?1 AND f.currency = ?2 AND f.facet = 'campaign'
                  AND f.grain = r.grain AND f.period BETWEEN r.lo AND r.hi
                GROUP BY f.key HAVING SUM(f.gift_count * r.sign) > 0 ORDER BY raised DESC, f.key LIMIT 5) t
         JOIN campaign c ON c.id = t.key
        ORDER BY t.raised DESC, c.id`,
    )
    .bind(orgId, currency, parts);
}

/** A campaign's gifts are all in its currency, so its campaign_stats row is its `campaign` facets' sum. */
export function topCampaignsAllTime(db: Database, orgId: string, currency: string) {
  return db
    .prepare(
      `SELECT c.id, c.title, ?2 AS currency, s.raised_minor AS raised, s.donation_count AS count
         FROM campaign c JOIN campaign_stats s ON s.campaign_id = c.id
        WHERE c.organization_id = ?1 AND c.currency = ?2 AND s.donation_count > 0
        ORDER BY s.raised_minor DESC, c.id LIMIT 5`,
    )
    .bind(orgId, currency);
}

export const TOP_DONORS = 5;

// Candidates are each period's five largest givers; `bound` (each period's sixth largest, summed) caps
// every other donor, so the list is exact when its last total reaches it. A candidate whose lifetime is
// below the floor the fifth place reaches is not summed (decision 032).
export function topDonors(
  db: Database,
  /** The organization's id, or a built campaign's with `scope` CAMPAIGN_SCOPE (decision 037). */
  owner: string,
  currency: string,
  parts: Parts,
  fromMs: number,
  untilMs: number,
  scope = ORG_SCOPE,
) {
  const nth = (alias: string, offset: number) =>
    `(SELECT y.amount_minor FROM ${scope.donors} y WHERE y.${scope.owner} = ?1 AND y.currency = ?2 AND y.grain = ${alias}.grain AND y.period = ${alias}.period
       ORDER BY y.amount_minor DESC LIMIT 1 OFFSET ${offset})`;
  // Each candidate's few gifts, by donation_donor_idx: cheaper than a period row per candidate.
  const totals = (
    candidates: string,
  ) => `SELECT c.donor_id, SUM(d.amount_minor - d.refunded_minor) AS total, COUNT(*) AS gifts
                   FROM (${candidates}) c CROSS JOIN donation d INDEXED BY donation_donor_idx ON d.donor_id = c.donor_id AND d.donated_at >= ?4 AND d.donated_at < ?5
                  WHERE d.${scope.owner} = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")}
                  GROUP BY c.donor_id`;
  return db
    .prepare(
      `WITH ${periodsCte("(?2)", scope)},
         cand AS (SELECT x.donor_id, SUM(x.amount_minor) AS top, (SELECT lifetime_minor FROM donor WHERE id = x.donor_id) AS lifetime
                    FROM p CROSS JOIN ${scope.donors} x
                    ON x.${scope.owner} = ?1 AND x.currency = ?2 AND x.grain = p.grain AND x.period = p.period
                   AND x.amount_minor >= COALESCE(${nth("p", TOP_DONORS - 1)}, 0)
                   GROUP BY x.donor_id),
         first AS (${totals(`SELECT * FROM (SELECT donor_id FROM cand ORDER BY top DESC, donor_id LIMIT ${TOP_DONORS})
                             UNION SELECT * FROM (SELECT donor_id FROM cand ORDER BY lifetime DESC, donor_id LIMIT ${TOP_DONORS})`)}),
         floor AS (SELECT COALESCE((SELECT total FROM first ORDER BY total DESC LIMIT 1 OFFSET ${TOP_DONORS - 1}), 0) AS v),
         tot AS (${totals("SELECT donor_id FROM cand WHERE lifetime >= (SELECT v FROM floor)")} ORDER BY total DESC, c.donor_id LIMIT ${TOP_DONORS})
       SELECT dn.id, COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, 'Anonymized') AS name,
              dn.company, tot.total, tot.gifts, (SELECT COALESCE(SUM(COALESCE(${nth("p", TOP_DONORS)}, 0)), 0) FROM p) AS bound
         FROM tot JOIN donor dn ON dn.id = tot.donor_id ORDER BY tot.total DESC, tot.donor_id`,
    )
    .bind(owner, currency, parts, fromMs, untilMs);
}

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
