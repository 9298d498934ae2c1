/**
 * Campaign analytics' SQL: one batch on COUNTED_SQL in the campaign's currency, aggregated in SQL from
 * the gifts, or from the campaign's own rollups where built (decision 037); the series from org_daily.
 */
import { estimateDistinct, histogramMedian } from "@core/analytics";
import { COUNTED_SQL } from "@core/status";
import {
  donorSample,
  facetTotals,
  partsOf,
  type SampleRow,
  sumPartsOf,
  TOP_DONORS,
  topDonors,
} from "../../dashboard/rollup-queries";
import type { Database } from "../../db/databases";
import { itemFundedSql } from "../../ledger/campaign-rollups";
import { CAMPAIGN_SCOPE } from "../../ledger/rollup-sql";

interface Agg {
  n: number;
  raised: number;
  donors: number;
  median: number | null;
}

interface AnalyticsRows {
  series: { day: string; raised: number; count: number }[];
  cur: Agg;
  prev: Agg;
  refunds: { count: number; amount: number };
  prevRefunds: { count: number; amount: number };
  top: { id: string; name: string; company: string | null; total: number; gifts: number }[];
  recent: {
    id: string;
    number: number;
    amount: number;
    currency: string;
    status: string;
    mode: string;
    at: number;
    anonymous: number;
    name: string;
  }[];
  items: { id: string; title: string; unitAmountMinor: number; needed: number | null; funded: number }[];
  /** Which figures are estimates (the rollups' path, decision 037); null: all exact. */
  estimated: { median: boolean; uniqueDonors: boolean; previousDonors: boolean; topDonors: boolean } | null;
}

/** Whether the campaign (?1) has its own rollups built in its organization's zone (decision 037). */
const BUILT = `EXISTS (SELECT 1 FROM campaign_rollup_state st JOIN organization o ON o.id = st.organization_id
                WHERE st.campaign_id = ?1 AND st.time_zone = o.time_zone)`;

/**
 * The campaign's figures in one round trip: both ways of answering go in the batch, and the gifts are
 * read only where the rollups are not built in the organization's zone (or `exact`).
 */
export async function analyticsRows(
  db: Database,
  c: { orgId: string; id: string; currency: string },
  r: {
    fromDay: string;
    toDay: string;
    fromMs: number;
    untilMs: number;
    prevMs: number;
    prevUntilMs: number;
    prevDays: [string, string] | null;
  },
  exact: boolean,
): Promise<AnalyticsRows> {
  // Each statement reads the gifts as the inner loop of `g`, a row that exists only where the rollups
  // do not answer; MATERIALIZED, so SQLite cannot fold its test into the loop and run it for every gift.
  const gate = `g AS MATERIALIZED (SELECT 1 AS go WHERE ${exact ? "1" : `NOT ${BUILT}`})`;
  const aggSql = `WITH ${gate},
          x AS (SELECT d.amount_minor - d.refunded_minor AS a, d.donor_id FROM g CROSS JOIN donation d
                   WHERE d.campaign_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")} AND d.donated_at >= ?3 AND d.donated_at < ?4)
     SELECT (SELECT COUNT(*) FROM x) AS n, (SELECT COALESCE(SUM(a), 0) FROM x) AS raised,
            (SELECT COUNT(DISTINCT donor_id) FROM x) AS donors,
            (SELECT AVG(a) FROM (SELECT a FROM x ORDER BY a LIMIT 2 - (SELECT COUNT(*) FROM x) % 2 OFFSET (SELECT (COUNT(*) - 1) / 2 FROM x))) AS median`;
  const refundSql = `WITH ${gate} SELECT COUNT(*) AS count, COALESCE(SUM(d.refunded_minor), 0) AS amount FROM g CROSS JOIN donation d
     WHERE d.campaign_id = ?1 AND d.currency = ?2 AND d.mode = 'live' AND d.trashed_at IS NULL AND d.refunded_minor > 0
       AND d.donated_at >= ?3 AND d.donated_at < ?4`;
  const topSql = `WITH ${gate} SELECT dn.id, COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, 'Anonymized') AS name,
          dn.company, SUM(d.amount_minor - d.refunded_minor) AS total, COUNT(*) AS gifts
     FROM g CROSS JOIN donation d JOIN donor dn ON dn.id = d.donor_id
    WHERE d.campaign_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")} AND d.donated_at >= ?3 AND d.donated_at < ?4
    GROUP BY dn.id ORDER BY total DESC, dn.id LIMIT ${TOP_DONORS}`;
  const parts = partsOf(r.fromDay, r.toDay);
  const prevParts = r.prevDays ? partsOf(...r.prevDays) : null;
  const none = db.prepare("SELECT 1 WHERE 0");
  const results = await db.batch([
    db.prepare(exact ? "SELECT 0 AS built" : `SELECT ${BUILT} AS built`).bind(...(exact ? [] : [c.id])),
    ...shared(db, c, r),
    // From the gifts.
    db.prepare(aggSql).bind(c.id, c.currency, r.fromMs, r.untilMs),
    db.prepare(aggSql).bind(c.id, c.currency, r.prevMs, r.prevUntilMs),
    db.prepare(refundSql).bind(c.id, c.currency, r.fromMs, r.untilMs),
    db.prepare(refundSql).bind(c.id, c.currency, r.prevMs, r.prevUntilMs),
    db.prepare(topSql).bind(c.id, c.currency, r.fromMs, r.untilMs),
    // From the rollups.
    ...(exact
      ? []
      : [
          facetTotals(db, c.id, c.currency, sumPartsOf(r.fromDay, r.toDay), CAMPAIGN_SCOPE),
          r.prevDays ? facetTotals(db, c.id, c.currency, sumPartsOf(...r.prevDays), CAMPAIGN_SCOPE) : none,
          donorSample(db, c.id, c.currency, parts, CAMPAIGN_SCOPE),
          prevParts ? donorSample(db, c.id, c.currency, prevParts, CAMPAIGN_SCOPE) : none,
          topDonors(db, c.id, c.currency, parts, r.fromMs, r.untilMs, CAMPAIGN_SCOPE),
        ]),
  ]);
  const all = <T>(i: number) => (results[i]?.results ?? []) as T[];
  const base = {
    series: all<AnalyticsRows["series"][number]>(1),
    recent: all<AnalyticsRows["recent"][number]>(2),
    items: all<AnalyticsRows["items"][number]>(3),
  };
  if (!all<{ built: number }>(0)[0]?.built)
    return {
      ...base,
      cur: all<Agg>(4)[0] as Agg,
      prev: all<Agg>(5)[0] as Agg,
      refunds: all<AnalyticsRows["refunds"]>(6)[0] as AnalyticsRows["refunds"],
      prevRefunds: all<AnalyticsRows["refunds"]>(7)[0] as AnalyticsRows["refunds"],
      top: all(8),
      estimated: null,
    };
  type Facet = { facet: string; key: string; count: number; amount: number };
  const figures = (facets: Facet[], sample: SampleRow | undefined) => {
    const net = facets.filter((f) => f.facet === "net");
    const refund = facets.find((f) => f.facet === "refund");
    const donors = estimateDistinct(sample?.n ?? 0, sample?.kth ?? null);
    return {
      agg: {
        n: net.reduce((t, f) => t + f.count, 0),
        raised: net.reduce((t, f) => t + f.amount, 0),
        donors: donors.value,
        median: histogramMedian(
          net.map((f) => ({ bucket: Number(f.key), count: f.count, amount: f.amount })),
        ),
      },
      refunds: { count: refund?.count ?? 0, amount: refund?.amount ?? 0 },
      donorsExact: donors.exact,
    };
  };
  const cur = figures(all<Facet>(9), all<SampleRow>(11)[0]);
  const prev = figures(all<Facet>(10), all<SampleRow>(12)[0]);
  const top = all<AnalyticsRows["top"][number] & { bound: number }>(13);
  const last = top.at(-1);
  return {
    ...base,
    cur: cur.agg,
    prev: prev.agg,
    refunds: cur.refunds,
    prevRefunds: prev.refunds,
    top: top.map(({ bound: _, ...d }) => d),
    // The median from the histogram, donors from the sample above SKETCH_K (decision 032's
    // methods); top donors exact when the last listed reaches what any other donor can have.
    estimated: {
      median: cur.agg.n > 0,
      uniqueDonors: !cur.donorsExact,
      previousDonors: !!prevParts && !prev.donorsExact,
      topDonors: top.length === TOP_DONORS && !!last && last.total < last.bound,
    },
  };
}

/** The reads both paths share: the series (org_daily), the latest gifts, the items. */
function shared(
  db: Database,
  c: { orgId: string; id: string; currency: string },
  r: { fromDay: string; toDay: string },
) {
  return [
    db
      .prepare(
        `SELECT day, raised_minor AS raised, donation_count AS count FROM org_daily
          WHERE organization_id = ? AND campaign_id = ? AND currency = ? AND day >= ? AND day <= ? ORDER BY day`,
      )
      .bind(c.orgId, c.id, c.currency, r.fromDay, r.toDay),
    db
      .prepare(
        `SELECT d.id, d.number, d.amount_minor AS amount, d.currency, d.status, d.mode, d.donated_at AS at, d.anonymous,
                COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, 'Anonymized') AS name
           FROM donation d LEFT JOIN donor dn ON dn.id = d.donor_id WHERE d.campaign_id = ? AND d.trashed_at IS NULL ORDER BY d.donated_at DESC LIMIT 10`,
      )
      .bind(c.id),
    db
      .prepare(
        `SELECT i.id, i.title, i.unit_amount_minor AS unitAmountMinor, i.quantity_needed AS needed,
                ${itemFundedSql("i.id")} AS funded
           FROM campaign_item i WHERE i.campaign_id = ? AND i.archived_at IS NULL ORDER BY i.sort_order, i.created_at`,
      )
      .bind(c.id),
  ];
}
