// The `sqlite` part: the same engine and file as the server's D1, without the server (read-only,
// before it starts): the index and rollup paths against a forced full scan.

import { statSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { startOfLocalDay } from "../../core/time.ts";
import { localD1File } from "../lib.mjs";

export async function sqlite(h) {
  const db = new DatabaseSync(localD1File(h.stateDir), { readOnly: true });
  try {
    databaseSize(h, db);
    const timeQuery = (q, params, n = 20) => {
      const st = db.prepare(q);
      st.all(...params);
      const times = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        st.all(...params);
        times.push(performance.now() - t0);
      }
      return h.pct(times, 50);
    };
    listAnswer(h, timeQuery);
    revenueSeries(h, timeQuery);
  } finally {
    db.close();
  }
}

/**
 * The database's size for the scaling notes (docs/scaling.md): the file after the seed (pages in
 * use: the seed leaves no free pages worth counting), per donation, and the analytics rollups' rows.
 */
function databaseSize({ row, stateDir }, db) {
  const bytes = statSync(localD1File(stateDir)).size;
  const [{ n }] = db.prepare("SELECT COUNT(*) AS n FROM donation").all();
  const [{ dp, af }] = db
    .prepare("SELECT (SELECT COUNT(*) FROM donor_period) AS dp, (SELECT COUNT(*) FROM analytics_facet) AS af")
    .all();
  row(
    "sqlite",
    `database size (${Number(n).toLocaleString()} donations with the demo world)`,
    `${(bytes / 2 ** 20).toFixed(0)} MiB; ${Math.round(bytes / Number(n)).toLocaleString()} bytes per donation`,
  );
  row(
    "sqlite",
    "analytics rollup rows (decision 032): donor_period; analytics_facet",
    `${Number(dp).toLocaleString()}; ${Number(af).toLocaleString()}`,
  );
}

/**
 * The list's whole answer as the router builds it: the late-joined page (the same first local day
 * as the HTTP row's `from`) and the per-currency totals, which a status + date-range filter reads
 * from donation_daily_totals (decision 013). The baseline computes the same answer from the
 * donation table alone by a forced full scan.
 */
function listAnswer({ row, orgId, from: fromDay }, timeQuery) {
  const fromMs = startOfLocalDay(fromDay, "America/Los_Angeles");
  const scanPage = `SELECT d.*, dn.email, c.title FROM (SELECT d.id FROM donation d NOT INDEXED WHERE d.organization_id = ? AND d.trashed_at IS NULL AND d.status IN ('completed') AND d.donated_at >= ? ORDER BY d.amount_minor DESC, d.id DESC LIMIT 25) p
     JOIN donation d ON d.id = p.id LEFT JOIN donor dn ON dn.id = d.donor_id LEFT JOIN campaign c ON c.id = d.campaign_id ORDER BY d.amount_minor DESC, d.id DESC`;
  const counted = "status IN ('completed','partially_refunded') AND mode = 'live'";
  // The router's page by amount: a window of 40 × 25 gifts in amount order from
  // donation_org_amount_idx, filtered (drizzle/0009, 0022); exact when it holds the page.
  const windowPage = `SELECT d.*, dn.email, c.title FROM (SELECT d.id FROM (SELECT d.id, d.organization_id, d.status, d.amount_minor, d.donated_at, d.trashed_at
     FROM donation d INDEXED BY donation_org_amount_idx WHERE d.organization_id = ? ORDER BY d.amount_minor DESC, d.id DESC LIMIT 1000) d
   WHERE d.status IN ('completed') AND d.trashed_at IS NULL AND d.donated_at >= ? ORDER BY d.amount_minor DESC, d.id DESC LIMIT 25) p
   JOIN donation d ON d.id = p.id LEFT JOIN donor dn ON dn.id = d.donor_id LEFT JOIN campaign c ON c.id = d.campaign_id ORDER BY d.amount_minor DESC, d.id DESC`;
  const listQueries = {
    indexes: [
      [windowPage, [orgId, fromMs]],
      [
        `SELECT currency, SUM(donation_count) AS count, COALESCE(SUM(CASE WHEN ${counted} AND trashed = 0 THEN donation_count END), 0),
              COALESCE(SUM(CASE WHEN ${counted} AND trashed = 0 THEN amount_minor - refunded_minor END), 0)
         FROM donation_daily_totals WHERE organization_id = ? AND day >= ? AND trashed = 0 AND status IN ('completed')
        GROUP BY currency HAVING SUM(donation_count) > 0 ORDER BY currency`,
        [orgId, fromDay],
      ],
    ],
    scan: [
      [scanPage, [orgId, fromMs]],
      [
        `SELECT d.currency, COUNT(*) AS count, COUNT(CASE WHEN d.mode = 'live' THEN 1 END), COALESCE(SUM(CASE WHEN d.mode = 'live' THEN d.amount_minor - d.refunded_minor END), 0)
         FROM donation d NOT INDEXED WHERE d.organization_id = ? AND d.trashed_at IS NULL AND d.status IN ('completed') AND d.donated_at >= ? GROUP BY d.currency`,
        [orgId, fromMs],
      ],
    ],
  };
  const both = (kind, n) =>
    listQueries[kind].reduce((t, [q, params]) => t + Number(timeQuery(q, params, n)), 0).toFixed(2);
  const listIdx = both("indexes", 20);
  const listScan = both("scan", 3);
  row(
    "sqlite",
    "donations list answer (status + 30 d, sort amount: amount-window page + daily totals) via indexes, p50",
    `${listIdx} ms`,
  );
  row(
    "sqlite",
    "same answer by full scan (baseline), p50",
    `${listScan} ms`,
    "≥ 20× slower",
    listScan / Math.max(listIdx, 0.001) >= 20,
  );
}

/** The dashboard's revenue series from the org_daily rollups against a full scan of the gifts. */
function revenueSeries({ row, orgId, from: day30 }, timeQuery) {
  const dashRollup = timeQuery(
    `SELECT day, raised_minor, donation_count FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND currency = 'USD' AND day >= ?`,
    [orgId, day30],
  );
  const dashScanAll = timeQuery(
    `SELECT date(donated_at / 1000, 'unixepoch'), SUM(amount_minor - refunded_minor), COUNT(*) FROM donation NOT INDEXED WHERE organization_id = ? AND status IN ('completed','partially_refunded') AND mode = 'live' AND trashed_at IS NULL GROUP BY 1`,
    [orgId],
    3,
  );
  const dashRollupAll = timeQuery(
    `SELECT day, raised_minor, donation_count FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND currency = 'USD'`,
    [orgId],
  );
  row("sqlite", "revenue series all time from rollups, p50", `${dashRollupAll} ms`);
  row(
    "sqlite",
    "revenue series all time by full scan (baseline), p50",
    `${dashScanAll} ms`,
    "≥ 20× slower",
    dashScanAll / Math.max(dashRollupAll, 0.001) >= 20,
  );
  row("sqlite", "revenue series 30 days from rollups, p50", `${dashRollup} ms`);
}
