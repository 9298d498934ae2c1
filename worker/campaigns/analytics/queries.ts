/**
 * Campaign analytics' SQL: one batch of reads on the counted-donations definition (COUNTED_SQL),
 * in the campaign's currency. The aggregates (with the median) are computed in SQL so the Worker
 * never receives the period's rows; the series comes from the org_daily rollup.
 */
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../../db/databases";
import { itemFundedSql } from "../items/queries";

export interface Agg {
  n: number;
  raised: number;
  donors: number;
  median: number | null;
}

export interface AnalyticsRows {
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
}

/**
 * `fromMs`..`untilMs` is the period, `prevMs`..`prevUntilMs` the one before it; `fromDay`..`toDay`
 * are the period's local days for the rollup series.
 */
export async function analyticsRows(
  db: Database,
  c: { orgId: string; id: string; currency: string },
  r: { fromDay: string; toDay: string; fromMs: number; untilMs: number; prevMs: number; prevUntilMs: number },
): Promise<AnalyticsRows> {
  const aggSql = `WITH x AS (SELECT d.amount_minor - d.refunded_minor AS a, d.donor_id FROM donation d
                   WHERE d.campaign_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")} AND d.donated_at >= ?3 AND d.donated_at < ?4)
     SELECT (SELECT COUNT(*) FROM x) AS n, (SELECT COALESCE(SUM(a), 0) FROM x) AS raised,
            (SELECT COUNT(DISTINCT donor_id) FROM x) AS donors,
            (SELECT AVG(a) FROM (SELECT a FROM x ORDER BY a LIMIT 2 - (SELECT COUNT(*) FROM x) % 2 OFFSET (SELECT (COUNT(*) - 1) / 2 FROM x))) AS median`;
  const refundSql = `SELECT COUNT(*) AS count, COALESCE(SUM(d.refunded_minor), 0) AS amount FROM donation d
     WHERE d.campaign_id = ?1 AND d.currency = ?2 AND d.mode = 'live' AND d.trashed_at IS NULL AND d.refunded_minor > 0
       AND d.donated_at >= ?3 AND d.donated_at < ?4`;
  const [series, cur, prev, refunds, prevRefunds, top, recent, items] = await db.batch([
    db
      .prepare(
        `SELECT day, raised_minor AS raised, donation_count AS count FROM org_daily
          WHERE organization_id = ? AND campaign_id = ? AND currency = ? AND day >= ? AND day <= ? ORDER BY day`,
      )
      .bind(c.orgId, c.id, c.currency, r.fromDay, r.toDay),
    db.prepare(aggSql).bind(c.id, c.currency, r.fromMs, r.untilMs),
    db.prepare(aggSql).bind(c.id, c.currency, r.prevMs, r.prevUntilMs),
    db.prepare(refundSql).bind(c.id, c.currency, r.fromMs, r.untilMs),
    db.prepare(refundSql).bind(c.id, c.currency, r.prevMs, r.prevUntilMs),
    db
      .prepare(
        `SELECT dn.id, COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, 'Anonymized') AS name, dn.company, SUM(d.amount_minor - d.refunded_minor) AS total, COUNT(*) AS gifts
           FROM donation d JOIN donor dn ON dn.id = d.donor_id WHERE d.campaign_id = ? AND d.currency = ? AND ${COUNTED_SQL("d")} AND d.donated_at >= ? AND d.donated_at < ?
          GROUP BY dn.id ORDER BY total DESC, dn.id LIMIT 5`,
      )
      .bind(c.id, c.currency, r.fromMs, r.untilMs),
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
  ]);
  const all = <T>(res: D1Result | undefined) => (res?.results ?? []) as T[];
  return {
    series: all(series),
    cur: all<Agg>(cur)[0] as Agg,
    prev: all<Agg>(prev)[0] as Agg,
    refunds: all<AnalyticsRows["refunds"]>(refunds)[0] as AnalyticsRows["refunds"],
    prevRefunds: all<AnalyticsRows["refunds"]>(prevRefunds)[0] as AnalyticsRows["refunds"],
    top: all(top),
    recent: all(recent),
    items: all(items),
  };
}
