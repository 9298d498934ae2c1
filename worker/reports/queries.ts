// The reports' SQL (decision 033) aggregates in SQLite and hands the Worker compact rows, never the gifts.
// Years are [start, end) instants joined to the gifts by range, so each seeks donation_counted_idx alone.
import type { FrequencyFilter } from "@core/labels";
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../db/databases";
import { frequencySql } from "../donations/list-queries";
import { donorTextSql } from "../donors/queries";
import { localDaySql, spansTable } from "../ledger/rollup-sql";
import { searchNeedle } from "../lib/list";

export interface GiftFilter {
  orgId: string;
  currency: string;
  campaignId?: string;
  /** The donor's current tier, as the /donors filter reads it. */
  tierId?: string;
  tagId?: string;
  paymentMethod?: string;
  frequency?: FrequencyFilter;
  source?: string;
}

/** Numbered bindings, so one value can be named in several places of a statement. */
class Binds {
  readonly args: unknown[] = [];
  add(value: unknown): string {
    this.args.push(value);
    return `?${this.args.length}`;
  }
}

// COUNTED_SQL is the partial index's own condition, so SQLite may read donation_counted_idx.
// A donor filter (tier, tag) drops gifts without a donor.
function giftWhere(
  f: GiftFilter,
  b: Binds,
  a = "d",
  org = b.add(f.orgId),
  cur = b.add(f.currency),
  seekOther = false,
): string {
  // `seekOther`: the unary + keeps SQLite off donation_counted_idx where another index finds far fewer
  // rows (donation_campaign_idx, donation_donor_idx).
  const p = seekOther ? "+" : "";
  const terms = [`${p}${a}.organization_id = ${org}`, `${p}${a}.currency = ${cur}`, COUNTED_SQL(a)];
  if (f.campaignId) terms.push(`${a}.campaign_id = ${b.add(f.campaignId)}`);
  if (f.paymentMethod) terms.push(`${a}.payment_method = ${b.add(f.paymentMethod)}`);
  if (f.frequency) terms.push(frequencySql(a, f.frequency, (v) => b.add(v)));
  if (f.source) terms.push(`${a}.source = ${b.add(f.source)}`);
  if (f.tierId)
    terms.push(
      `${a}.donor_id IN (SELECT t.id FROM donor t WHERE t.organization_id = ${org} AND t.tier_id = ${b.add(f.tierId)})`,
    );
  if (f.tagId)
    terms.push(
      `${a}.donor_id IN (SELECT ta.donor_id FROM donor_tag_assignment ta WHERE ta.tag_id = ${b.add(f.tagId)})`,
    );
  return terms.join(" AND ");
}

/** [year, start, end] triples as the table y(yr, b, e). */
const yearsTable = (p: string) =>
  `y(yr, b, e) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(${p}))`;

export type YearSpan = [year: number, start: number, end: number];

/** One seek of donation_counted_idx; the year pickers and the yearly reports' default years start here. */
const firstCountedSql = (org: string, cur: string) =>
  `(SELECT MIN(d.donated_at) FROM donation d WHERE d.organization_id = ${org} AND d.currency = ${cur} AND ${COUNTED_SQL("d")})`;

export function optionStatements(db: Database, orgId: string, currencies: readonly string[]) {
  return [
    db.prepare("SELECT fiscal_year_start_month AS month FROM organization WHERE id = ?").bind(orgId),
    db
      .prepare(
        `SELECT c.value AS currency, ${firstCountedSql("?1", "c.value")} AS first FROM json_each(?2) c`,
      )
      .bind(orgId, JSON.stringify(currencies)),
  ];
}

/** The filtered set's first gift (where a report's years begin) and the currency's (the pickers' start). */
export function firstGiftStatement(db: Database, f: GiftFilter) {
  const b = new Binds();
  const where = giftWhere(f, b);
  // giftWhere binds the organization as ?1 and the currency as ?2.
  return db
    .prepare(
      `SELECT (SELECT MIN(d.donated_at) FROM donation d WHERE ${where}) AS first,
              ${firstCountedSql("?1", "?2")} AS currencyFirst,
              (SELECT fiscal_year_start_month FROM organization WHERE id = ?1) AS month`,
    )
    .bind(...b.args);
}

// One pass: kind 't' is each year's totals, kind 'c' each cohort's (first-gift year `fy`) per year.
// `years` start at the first gift, so first years and lapsed donors are known.
export function yearlyStatement(db: Database, f: GiftFilter, years: readonly YearSpan[]) {
  const b = new Binds();
  const where = giftWhere(f, b);
  const y = b.add(JSON.stringify(years));
  return db
    .prepare(
      `WITH ${yearsTable(y)},
            g AS MATERIALIZED (
              SELECT d.donor_id AS donor, y.yr AS yr, SUM(d.amount_minor - d.refunded_minor) AS amt, COUNT(*) AS n
                FROM y CROSS JOIN donation d ON d.donated_at >= y.b AND d.donated_at < y.e
               WHERE ${where}
               GROUP BY d.donor_id, y.yr),
            w AS (SELECT yr, amt, n, MIN(yr) OVER p AS fy, LAG(yr) OVER p AS prev
                    FROM g WHERE donor IS NOT NULL WINDOW p AS (PARTITION BY donor ORDER BY yr))
       SELECT 't' AS k, NULL AS fy, yr, SUM(amt) AS amt, SUM(n) AS n, COUNT(donor) AS donors, 0 AS kept FROM g GROUP BY yr
       UNION ALL
       SELECT 'c', fy, yr, SUM(amt), SUM(n), COUNT(*), SUM(prev IS NOT NULL AND prev = yr - 1) FROM w GROUP BY fy, yr`,
    )
    .bind(...b.args);
}

export interface LapsedRow {
  id: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  email: string | null;
  anonymized: number;
  emailOptIn: number;
  phoneOptIn: number;
  mailOptIn: number;
  /** The year of the donor's last gift, named by its start. */
  lastYear: number;
  lastYearMinor: number;
  lastGiftAt: number;
  lifetimeMinor: number;
  gifts: number;
}

// Ties by id, so pages never overlap. Lifetime totals are read for the page's rows alone, so a LYBUNT page
// costs one year of gifts. `offset` pages the list (size and total by window functions); `after`, the export.
export function lapsedStatement(
  db: Database,
  f: GiftFilter,
  p: {
    kind: "lybunt" | "sybunt";
    years: readonly YearSpan[];
    lastYear: YearSpan;
    currentStart: number;
    limit: number;
    offset?: number;
    after?: { total: number; id: string };
    q?: string;
  },
) {
  const b = new Binds();
  const org = b.add(f.orgId);
  const cur = b.add(f.currency);
  const where = giftWhere(f, b, "d", org, cur);
  const later = giftWhere(f, b, "x", org, cur);
  const lybunt = p.kind === "lybunt";
  // LYBUNT gave nothing from this year's start on; SYBUNT nothing from last year's.
  const since = b.add(lybunt ? p.currentStart : p.lastYear[1]);
  const lastYear = b.add(p.lastYear[0]);
  const candidates = lybunt
    ? `l AS (SELECT d.donor_id AS id, ${lastYear} AS lastYear, SUM(d.amount_minor - d.refunded_minor) AS lastYearMinor,
                    MAX(d.donated_at) AS lastGiftAt
               FROM donation d
              WHERE ${where} AND d.donor_id IS NOT NULL AND d.donated_at >= ${b.add(p.lastYear[1])} AND d.donated_at < ${b.add(p.lastYear[2])}
              GROUP BY d.donor_id)`
    : `${yearsTable(b.add(JSON.stringify(p.years)))},
       g AS (SELECT d.donor_id AS donor, y.yr AS yr, SUM(d.amount_minor - d.refunded_minor) AS amt, MAX(d.donated_at) AS lastAt
               FROM y CROSS JOIN donation d ON d.donated_at >= y.b AND d.donated_at < y.e
              WHERE ${where} AND d.donor_id IS NOT NULL
              GROUP BY d.donor_id, y.yr),
       -- One MAX() per group: SQLite takes the bare columns (amt, lastAt) from the row holding it.
       l AS (SELECT donor AS id, MAX(yr) AS lastYear, amt AS lastYearMinor, lastAt AS lastGiftAt FROM g GROUP BY donor)`;
  const search = p.q ? `AND ${donorTextSql("dn", b.add(searchNeedle(p.q)))}` : "";
  const keyset = p.after
    ? `AND (l.lastYearMinor < ${b.add(p.after.total)} OR (l.lastYearMinor = ${b.add(p.after.total)} AND l.id > ${b.add(p.after.id)}))`
    : "";
  const limit = b.add(p.limit);
  const offset = b.add(p.offset ?? 0);
  // A page's donors' lifetime giving, one seek of donation_donor_idx each.
  const own = giftWhere(f, b, "x", org, cur, true);
  const lifetime = (col: string) => `(SELECT ${col} FROM donation x WHERE x.donor_id = page.id AND ${own})`;
  return db
    .prepare(
      `WITH ${candidates},
            -- The donors who gave since, once (one range of donation_counted_idx), not per donor.
            gave AS MATERIALIZED (SELECT DISTINCT x.donor_id AS id FROM donation x
                                   WHERE ${later} AND x.donated_at >= ${since} AND x.donor_id IS NOT NULL),
            page AS (SELECT l.id, l.lastYear, l.lastYearMinor, l.lastGiftAt,
                            COUNT(*) OVER () AS total, SUM(l.lastYearMinor) OVER () AS totalMinor
                       FROM l ${search ? "JOIN donor dn ON dn.id = l.id" : ""}
                      WHERE l.id NOT IN (SELECT id FROM gave) ${search} ${keyset}
                      ORDER BY l.lastYearMinor DESC, l.id
                      LIMIT ${limit} OFFSET ${offset})
       SELECT page.id, dn.first_name AS firstName, dn.last_name AS lastName, dn.company, dn.email,
              dn.anonymized_at IS NOT NULL AS anonymized, dn.email_opt_in AS emailOptIn,
              dn.phone_opt_in AS phoneOptIn, dn.mail_opt_in AS mailOptIn, page.lastYear, page.lastYearMinor, page.lastGiftAt,
              ${lifetime("COALESCE(SUM(x.amount_minor - x.refunded_minor), 0)")} AS lifetimeMinor,
              ${lifetime("COUNT(*)")} AS gifts, page.total, page.totalMinor
         FROM page JOIN donor dn ON dn.id = page.id
        ORDER BY page.lastYearMinor DESC, page.id`,
    )
    .bind(...b.args);
}

/** Bands are [min, max) in minor units (core/reports.ts pyramidBands). */
export function pyramidStatement(
  db: Database,
  f: GiftFilter,
  p: { start: number; end: number; bands: readonly { minMinor: number; maxMinor: number | null }[] },
) {
  const b = new Binds();
  const where = giftWhere(f, b);
  const start = b.add(p.start);
  const end = b.add(p.end);
  const bands = b.add(JSON.stringify(p.bands.map((x) => [x.minMinor, x.maxMinor])));
  return db
    .prepare(
      `WITH t AS (SELECT d.donor_id AS donor, SUM(d.amount_minor - d.refunded_minor) AS total FROM donation d
                   WHERE ${where} AND d.donor_id IS NOT NULL AND d.donated_at >= ${start} AND d.donated_at < ${end}
                   GROUP BY d.donor_id),
            bands(i, lo, hi) AS (SELECT key, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${bands}))
       SELECT bands.i, COUNT(t.donor) AS donors, COALESCE(SUM(t.total), 0) AS amountMinor
         FROM bands LEFT JOIN t ON t.total >= bands.lo AND (bands.hi IS NULL OR t.total < bands.hi)
        GROUP BY bands.i ORDER BY bands.i`,
    )
    .bind(...b.args);
}

/** Every basis: the pyramid applies each tier to a year's giving. */
export function tiersStatement(db: Database, orgId: string) {
  return db
    .prepare(
      "SELECT id, name, color, min_minor AS minMinor, max_minor AS maxMinor FROM donor_tier WHERE organization_id = ? ORDER BY min_minor",
    )
    .bind(orgId);
}

export interface CampaignRow {
  id: string;
  title: string;
  currency: string;
  status: string;
  startAt: number | null;
  endAt: number | null;
  createdAt: number;
}

/** Another organization's id reads as not found. */
export function campaignsStatement(db: Database, orgId: string, ids: readonly string[]) {
  return db
    .prepare(
      `SELECT c.id, c.title, c.currency, c.status, c.start_at AS startAt, c.end_at AS endAt, c.created_at AS createdAt
         FROM campaign c WHERE c.organization_id = ?1 AND c.id IN (SELECT value FROM json_each(?2))`,
    )
    .bind(orgId, JSON.stringify(ids));
}

/** One median statement per campaign, the middle of its sorted net amounts as on the dashboard. */
export function campaignStatsStatements(
  db: Database,
  f: GiftFilter,
  ids: readonly string[],
  from: number,
  until: number,
) {
  const stats = (() => {
    const b = new Binds();
    const where = giftWhere(f, b, "d", undefined, undefined, true);
    return db
      .prepare(
        `SELECT d.campaign_id AS id, COUNT(*) AS gifts, SUM(d.amount_minor - d.refunded_minor) AS raisedMinor,
                COUNT(DISTINCT d.donor_id) AS donors, MIN(d.donated_at) AS firstAt, MAX(d.donated_at) AS lastAt
           FROM donation d
          WHERE ${where} AND d.campaign_id IN (SELECT value FROM json_each(${b.add(JSON.stringify(ids))}))
            AND d.donated_at >= ${b.add(from)} AND d.donated_at < ${b.add(until)}
          GROUP BY d.campaign_id`,
      )
      .bind(...b.args);
  })();
  const medians = ids.map((id) => {
    const b = new Binds();
    const where = giftWhere({ ...f, campaignId: id }, b, "d", undefined, undefined, true);
    return db
      .prepare(
        `WITH x AS (SELECT d.amount_minor - d.refunded_minor AS a FROM donation d
                     WHERE ${where} AND d.donated_at >= ${b.add(from)} AND d.donated_at < ${b.add(until)})
         SELECT (SELECT AVG(a) FROM (SELECT a FROM x ORDER BY a LIMIT 2 - (SELECT COUNT(*) FROM x) % 2
                                      OFFSET (SELECT (COUNT(*) - 1) / 2 FROM x))) AS median`,
      )
      .bind(...b.args);
  });
  return { stats, medians };
}

/** Local days by the zone's spans (worker/ledger/rollup-sql.ts); seeks donation_campaign_idx per campaign. */
export function campaignDaysStatement(
  db: Database,
  f: GiftFilter,
  ids: readonly string[],
  spans: readonly [number, number, number, null][],
) {
  const b = new Binds();
  const where = giftWhere(f, b, "d", undefined, undefined, true);
  const idsP = b.add(JSON.stringify(ids));
  const spansP = Number(b.add(JSON.stringify(spans)).slice(1));
  return db
    .prepare(
      `WITH ${spansTable(spansP)}, c(id) AS (SELECT value FROM json_each(${idsP}))
       SELECT d.campaign_id AS id, ${localDaySql("d.donated_at")} AS day, SUM(d.amount_minor - d.refunded_minor) AS raisedMinor
         FROM c CROSS JOIN s CROSS JOIN donation d
              ON d.campaign_id = c.id AND d.status IN ('completed','partially_refunded') AND d.donated_at >= s.b AND d.donated_at < s.e
        WHERE ${where}
        GROUP BY 1, 2 ORDER BY 1, 2`,
    )
    .bind(...b.args);
}
