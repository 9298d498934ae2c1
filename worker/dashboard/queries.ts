// The dashboard's SQL as tuned (decisions 011 and 014); "counted" is DESIGN §4's COUNTED_SQL.
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../db/databases";
import { FROM, SELECT } from "../donations/queries";
import type { RetentionWindows } from "./retention";

/** One summary's twelve statements, one batch; `allTime` reads other indexes and rollups (drizzle/0008). */
export function summaryStatements(
  db: Database,
  p: {
    orgId: string;
    currency: string;
    from: string;
    fromMs: number;
    /** The last N days have no end: DAY_KEY_AFTER, NO_END_MS. */
    to: string;
    untilMs: number;
    prevFrom: string | null;
    prevMs: number;
    allTime: boolean;
  },
) {
  const { orgId, currency, from, fromMs, to, untilMs, prevFrom, prevMs, allTime } = p;
  const counted = `d.organization_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")} AND d.donated_at >= ?3 AND d.donated_at < ?4`;
  return [
    db
      .prepare(
        "SELECT day, raised_minor AS raised, donation_count AS count FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND currency = ? AND day >= ? AND day <= ? AND donation_count != 0 ORDER BY day",
      )
      .bind(orgId, currency, from, to),
    db
      .prepare(
        "SELECT COALESCE(SUM(raised_minor),0) AS raised, COALESCE(SUM(donation_count),0) AS count FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND currency = ? AND day >= ? AND day < ?",
      )
      .bind(orgId, currency, prevFrom ?? "9999", from),
    allTime
      ? db
          .prepare(
            // All time has no first day to seek: sums from org_daily, the median by donation_counted_net_idx.
            `WITH t AS (SELECT COALESCE(SUM(donation_count), 0) AS n, COALESCE(SUM(raised_minor), 0) AS raised
                          FROM org_daily WHERE organization_id = ?1 AND campaign_id = '*' AND currency = ?2)
             SELECT t.n, t.raised,
                    (SELECT AVG(a) FROM (SELECT d.amount_minor - d.refunded_minor AS a FROM donation d
                                          WHERE d.organization_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")}
                                          ORDER BY d.amount_minor - d.refunded_minor
                                          LIMIT 2 - (SELECT n FROM t) % 2 OFFSET (SELECT (n - 1) / 2 FROM t))) AS median
               FROM t`,
          )
          .bind(orgId, currency)
      : db
          .prepare(
            // Aggregates and the median in SQL: the Worker never receives the period's rows.
            `WITH x AS (SELECT d.amount_minor - d.refunded_minor AS a, d.donor_id FROM donation d WHERE ${counted})
               SELECT (SELECT COUNT(*) FROM x) AS n, (SELECT COALESCE(SUM(a), 0) FROM x) AS raised,
                      (SELECT COUNT(DISTINCT donor_id) FROM x) AS donors,
                      (SELECT AVG(a) FROM (SELECT a FROM x ORDER BY a LIMIT 2 - (SELECT COUNT(*) FROM x) % 2 OFFSET (SELECT (COUNT(*) - 1) / 2 FROM x))) AS median`,
          )
          .bind(orgId, currency, fromMs, untilMs),
    db
      .prepare(
        `SELECT COUNT(DISTINCT d.donor_id) AS n FROM donation d WHERE d.organization_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")} AND d.donated_at >= ?3 AND d.donated_at < ?4`,
      )
      .bind(orgId, currency, prevMs, fromMs),
    allTime
      ? db
          .prepare(
            // All time by status is exactly what donation_totals keeps (drizzle/0005).
            "SELECT status, SUM(donation_count) AS count, SUM(amount_minor) AS amount FROM donation_totals WHERE organization_id = ?1 AND currency = ?2 AND mode = 'live' AND trashed = 0 GROUP BY status HAVING SUM(donation_count) > 0 ORDER BY count DESC",
          )
          .bind(orgId, currency)
      : db
          .prepare(
            "SELECT d.status, COUNT(*) AS count, SUM(d.amount_minor) AS amount FROM donation d WHERE d.organization_id = ?1 AND d.currency = ?2 AND d.trashed_at IS NULL AND d.mode = 'live' AND d.donated_at >= ?3 AND d.donated_at < ?4 GROUP BY d.status ORDER BY count DESC",
          )
          .bind(orgId, currency, fromMs, untilMs),
    db
      .prepare(
        `SELECT d.payment_method AS method, COUNT(*) AS count, SUM(d.amount_minor - d.refunded_minor) AS amount FROM donation d WHERE ${counted} GROUP BY d.payment_method ORDER BY amount DESC`,
      )
      .bind(orgId, currency, fromMs, untilMs),
    db
      .prepare(
        "SELECT c.id, c.title, o.currency, SUM(o.raised_minor) AS raised, SUM(o.donation_count) AS count FROM org_daily o JOIN campaign c ON c.id = o.campaign_id WHERE o.organization_id = ? AND o.currency = ? AND o.day >= ? AND o.day <= ? GROUP BY c.id HAVING SUM(o.donation_count) > 0 ORDER BY raised DESC LIMIT 5",
      )
      .bind(orgId, currency, from, to),
    db
      .prepare(
        // Grouped on the donation side first (donation_counted_donor_idx order), then only five donors read.
        `SELECT dn.id, COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, 'Anonymized') AS name, dn.company, t.total, t.gifts
           FROM (SELECT d.donor_id, SUM(d.amount_minor - d.refunded_minor) AS total, COUNT(*) AS gifts FROM donation d
                  WHERE ${counted} AND d.donor_id IS NOT NULL GROUP BY d.donor_id ORDER BY total DESC, d.donor_id LIMIT 5) t
           JOIN donor dn ON dn.id = t.donor_id ORDER BY t.total DESC, t.donor_id`,
      )
      .bind(orgId, currency, fromMs, untilMs),
    db
      .prepare(
        // The period's latest gifts, whatever their currency or status (the list a tile opens).
        `SELECT ${SELECT} FROM ${FROM} WHERE d.organization_id = ? AND d.trashed_at IS NULL AND d.donated_at >= ? AND d.donated_at < ? ORDER BY d.donated_at DESC LIMIT 8`,
      )
      .bind(orgId, fromMs, untilMs),
    allTime
      ? db
          .prepare(
            // One pass in donation_counted_donor_idx order, no sort; a gift without a donor adds no donor.
            `SELECT COUNT(donor_id) AS donors,
                    COALESCE(SUM(otc), 0) AS otCount, COALESCE(SUM(ota), 0) AS otAmount, COUNT(CASE WHEN otc > 0 THEN donor_id END) AS otDonors,
                    COALESCE(SUM(rcc), 0) AS rcCount, COALESCE(SUM(rca), 0) AS rcAmount, COUNT(CASE WHEN rcc > 0 THEN donor_id END) AS rcDonors
               FROM (SELECT d.donor_id,
                            SUM(d.frequency = 'one_time') AS otc,
                            SUM(CASE WHEN d.frequency = 'one_time' THEN d.amount_minor - d.refunded_minor ELSE 0 END) AS ota,
                            SUM(d.frequency != 'one_time') AS rcc,
                            SUM(CASE WHEN d.frequency != 'one_time' THEN d.amount_minor - d.refunded_minor ELSE 0 END) AS rca
                       FROM donation d WHERE d.organization_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")}
                      GROUP BY d.donor_id)`,
          )
          .bind(orgId, currency)
      : db
          .prepare(
            `SELECT CASE WHEN d.frequency = 'one_time' THEN 'one_time' ELSE 'recurring' END AS kind, COUNT(*) AS count,
                    SUM(d.amount_minor - d.refunded_minor) AS amount, COUNT(DISTINCT d.donor_id) AS donors
               FROM donation d WHERE ${counted} GROUP BY kind`,
          )
          .bind(orgId, currency, fromMs, untilMs),
    db
      .prepare(
        // Refunds by the gift's date (the refund itself carries no date of its own).
        "SELECT COUNT(*) AS count, COALESCE(SUM(d.refunded_minor), 0) AS amount FROM donation d WHERE d.organization_id = ?1 AND d.currency = ?2 AND d.mode = 'live' AND d.trashed_at IS NULL AND d.refunded_minor > 0 AND d.donated_at >= ?3 AND d.donated_at < ?4",
      )
      .bind(orgId, currency, fromMs, untilMs),
    db
      .prepare(
        "SELECT DISTINCT currency FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND donation_count > 0",
      )
      .bind(orgId),
  ];
}

/** Donors of the previous 12 months (`base`) and how many gave again in the last 12 (`retained`). */
export function retentionCounts(db: Database, orgId: string, w: RetentionWindows) {
  return db
    .prepare(
      `SELECT COUNT(*) AS base, SUM(CASE WHEN EXISTS (SELECT 1 FROM donation y WHERE y.donor_id = x.donor_id AND ${COUNTED_SQL("y")} AND y.donated_at >= ?2) THEN 1 ELSE 0 END) AS retained
         FROM (SELECT DISTINCT d.donor_id FROM donation d WHERE d.organization_id = ?1 AND ${COUNTED_SQL("d")} AND d.donor_id IS NOT NULL AND d.donated_at >= ?3 AND d.donated_at < ?2) x`,
    )
    .bind(orgId, w.recentFromMs, w.priorFromMs)
    .first<{ base: number; retained: number | null }>();
}

export const PLATFORM_TOP = 50;

export function platformStatements(db: Database, from: string, to: string) {
  return [
    db
      .prepare(
        "SELECT currency, SUM(raised_minor) AS raised, SUM(donation_count) AS count FROM org_daily WHERE campaign_id = '*' AND day >= ? AND day <= ? GROUP BY currency HAVING SUM(donation_count) > 0 ORDER BY raised DESC",
      )
      .bind(from, to),
    db
      .prepare(
        `SELECT o.id, o.name, od.currency, SUM(od.raised_minor) AS raised, SUM(od.donation_count) AS count
               FROM org_daily od JOIN organization o ON o.id = od.organization_id
              WHERE od.campaign_id = '*' AND od.day >= ? AND od.day <= ? GROUP BY o.id, od.currency HAVING SUM(od.donation_count) > 0
              ORDER BY raised DESC LIMIT ?`,
      )
      .bind(from, to, PLATFORM_TOP),
  ];
}
