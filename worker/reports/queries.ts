/**
 * The fundraising reports' SQL (issue 27; docs/architecture.md: the only place that speaks SQL).
 * Every statement aggregates in SQLite and hands the Worker compact rows — per year, per cohort
 * cell, per tier band, per campaign and day, or one page of donors — never the gifts themselves
 * (at 1M donations a result of every gift fails the request: worker/analytics/queries.ts).
 * "Counted" is COUNTED_SQL, in one currency; a year is a [start, end) pair of instants from
 * core/reports.ts, read from a JSON parameter and joined to the gifts by range, so each year
 * seeks donation_counted_idx (organization, currency, donated_at, …) on its own.
 */
import type { FrequencyFilter } from "@core/labels";
import { COUNTED_SQL } from "@core/status";
import type { Database } from "../db/databases";
import { localDaySql, spansTable } from "../donations/daily-totals-sql";
import { frequencySql } from "../donations/list-queries";
import { donorTextSql } from "../donors/queries";
import { searchNeedle } from "../lib/list";

/** Which gifts a report counts: counted gifts of one currency, narrowed by the list filters. */
export interface GiftFilter {
  orgId: string;
  currency: string;
  campaignId?: string;
  /** The donor's current tier (donor.tier_id), as the /donors filter reads it. */
  tierId?: string;
  tagId?: string;
  /** The gift's own, as the /donations filters read them. */
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

/**
 * The conditions a gift `a` must meet: the organization, the currency, counted (the partial
 * index's own condition, so SQLite may read donation_counted_idx), and the filters. A donor
 * filter (tier, tag) keeps only gifts of donors it names, so it drops gifts without a donor. The
 * gift's frequency and method are columns of donation_counted_idx; its source is read from the row.
 */
function giftWhere(
  f: GiftFilter,
  b: Binds,
  a = "d",
  org = b.add(f.orgId),
  cur = b.add(f.currency),
  seekOther = false,
): string {
  // `seekOther`: the unary + keeps SQLite off donation_counted_idx (every gift of the organization
  // in the currency) where another index finds far fewer rows: a campaign's gifts in
  // donation_campaign_idx, a donor's in donation_donor_idx.
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

/** A JSON parameter of [year, start, end] triples as the table y(yr, b, e). */
const yearsTable = (p: string) =>
  `y(yr, b, e) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(${p}))`;

export type YearSpan = [year: number, start: number, end: number];

/**
 * A currency's first counted gift (`org` and `cur` are SQL for the organization and the currency):
 * one seek of donation_counted_idx, the MIN of its leading date column. The year pickers start
 * there, and so do the yearly reports' default years.
 */
const firstCountedSql = (org: string, cur: string) =>
  `(SELECT MIN(d.donated_at) FROM donation d WHERE d.organization_id = ${org} AND d.currency = ${cur} AND ${COUNTED_SQL("d")})`;

/** The organization's fiscal year start (1–12) and, per currency asked about, its first counted gift. */
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

/**
 * The first counted gift of the filtered set (where a report's years begin), the currency's first
 * counted gift whatever the other filters (where the year pickers start: optionStatements), and
 * the fiscal start month.
 */
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

/**
 * Per year (`years`: every year from the first gift on, so first years and lapsed donors are
 * known), in one pass over the filtered gifts:
 * - kind 't': the year's amount, gifts and donors (gifts without a donor count, not as donors);
 * - kind 'c': per first-gift year `fy` and year: the cohort's donors, gifts and amount, and how
 *   many of them also gave the year before (LAG over each donor's years).
 */
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

/** One row of a lapsed donors list as the SQL gives it. */
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
  /** The year (named by its start) of the donor's last gift, and its total that year. */
  lastYear: number;
  lastYearMinor: number;
  lastGiftAt: number;
  lifetimeMinor: number;
  gifts: number;
}

/**
 * LYBUNT or SYBUNT donors of the filtered gifts, biggest total in their last year of giving first
 * (ties by id, so pages never overlap), with their lifetime giving (of the filtered gifts).
 * - LYBUNT: the donors of `lastYear` ([start, end)), less those who gave from `currentStart` on.
 *   Only last year's gifts rank them; lifetime totals are read for the page's rows alone
 *   (donation_donor_idx), so a page costs one year of gifts, not the whole history.
 * - SYBUNT: each donor's last year with gifts among `years` (every year from the first gift to
 *   the year before `lastYear`), less those who gave from `lastYear.start` on.
 *
 * `offset`: OFFSET paging with the set's size and total in the same pass (window functions over the
 * whole set before LIMIT); `after`: keyset paging for the export, (total, id) after the cursor.
 */
export function lapsedStatement(
  db: Database,
  f: GiftFilter,
  p: {
    kind: "lybunt" | "sybunt";
    /** The years before the last complete one (SYBUNT's), from the first gift on. */
    years: readonly YearSpan[];
    lastYear: YearSpan;
    currentStart: number;
    limit: number;
    offset?: number;
    after?: { total: number; id: string };
    /** The list's search: the donor's name, e-mail or company, as /donors searches. */
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

/**
 * The pyramid: each donor's giving over [start, end), counted into the bands ([min, max) minor
 * units, core/reports.ts pyramidBands) it falls in: donors and amount per band.
 */
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

/** The organization's donor tiers (every basis: the pyramid applies each to a year's giving). */
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

/** The campaigns compared, of the organization only (another's id reads as not found). */
export function campaignsStatement(db: Database, orgId: string, ids: readonly string[]) {
  return db
    .prepare(
      `SELECT c.id, c.title, c.currency, c.status, c.start_at AS startAt, c.end_at AS endAt, c.created_at AS createdAt
         FROM campaign c WHERE c.organization_id = ?1 AND c.id IN (SELECT value FROM json_each(?2))`,
    )
    .bind(orgId, JSON.stringify(ids));
}

/**
 * Per campaign over [from, until): raised, gifts, donors, first and last gift; and one median
 * statement per campaign (the middle of its sorted net amounts, as the dashboard's).
 */
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

/**
 * Each campaign's raised amount per local day of the organization over the instants the zone
 * spans cover (worker/donations/daily-totals-sql.ts: one offset per span), seeking each campaign's
 * counted gifts in donation_campaign_idx (campaign, status, date).
 */
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
