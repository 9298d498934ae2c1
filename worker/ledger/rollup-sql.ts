// The SQL of the per-day rollups' rebuild (decisions 013, 038), shared with the seed (scripts/seed-domain.mjs
// imports this file directly: imports here keep their extension).
import { COUNTED_SQL } from "../../core/status.ts";
import {
  DAY_KEY_AFTER,
  DAY_KEY_BEFORE,
  DAY_KEY_FROM_MS,
  DAY_KEY_UNTIL_MS,
  offsetSpans,
} from "../../core/time.ts";

/** [start, end) in UTC ms, the zone's offset there, or a fixed day key (instants outside years 1000–9999). */
export type DaySpan = [number, number, number, string | null];

/** A rebuild's spans: the zone's offsets over [from, until) and the fixed-key ends; a gift between fails. */
export function dailySpans(from: number, until: number, timeZone: string): DaySpan[] {
  return [
    [-Number.MAX_SAFE_INTEGER, DAY_KEY_FROM_MS, 0, DAY_KEY_BEFORE],
    ...offsetSpans(from, until, timeZone).map(([s, e, o]): DaySpan => [s, e, o, null]),
    [DAY_KEY_UNTIL_MS, Number.MAX_SAFE_INTEGER, 0, DAY_KEY_AFTER],
  ];
}

/** The local day ('YYYY-MM-DD') of `at` under span `s`: local midnight, floored (also before 1970), or the
 * span's fixed key. The one place SQL turns an instant into a day; core/time.ts `dayKey` is its twin. */
export function localDaySql(at: string, s = "s"): string {
  const local = `(${at} + ${s}.o)`;
  return `COALESCE(${s}.k, date((${local} - ((${local} % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch'))`;
}

/** The DaySpan[] JSON parameter `?p` as a table s(b, e, o, k), for a WITH clause. */
export const spansTable = (p: number) =>
  `s(b, e, o, k) AS (
              SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')
                FROM json_each(?${p}))`;

/** The values a rebuild's statements bind, in this order (?1 … ?9). */
const REBUILD_VALUES = [
  "org",
  "spans",
  "dayFrom",
  "dayUntil",
  "monthFrom",
  "monthUntil",
  "tz",
  "campaign",
  "now",
] as const;
export type RebuildValue = (typeof REBUILD_VALUES)[number];
/** Open ends of a rebuild's stretch of periods: '' sorts before every key, '~' after (DAY_KEY_AFTER too). */
export const PERIOD_FIRST = "";
export const PERIOD_LAST = "~";

/** A statement with the names of the values it binds: as many as its highest ?N (D1 wants no more). */
function named(sql: string): { sql: string; args: RebuildValue[] } {
  const max = Math.max(0, ...[...sql.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])));
  return { sql, args: REBUILD_VALUES.slice(0, max) };
}

/** One stretch of the organization's per-day rollups' rebuild (decision 038): rows of the local days
 * [dayFrom, dayUntil) and months [monthFrom, monthUntil) deleted, then counted again from the gifts the spans
 * cover. With `last`, the state row names `tz` only if every donation is counted, else its NOT NULL fails. */
export function dailyRebuildSql(opts: { last: boolean }): { sql: string; args: RebuildValue[] }[] {
  const day = localDaySql("d.donated_at");
  const gifts =
    "s CROSS JOIN donation d ON d.organization_id = ?1 AND d.donated_at >= s.b AND d.donated_at < s.e";
  const rollups = { spans: spansTable(2), from: gifts, where: "1", sign: "1" };
  return [
    named("DELETE FROM donation_daily_state WHERE organization_id = ?1"),
    named("DELETE FROM donation_daily_totals WHERE organization_id = ?1 AND day >= ?3 AND day < ?4"),
    named(
      `INSERT INTO donation_daily_totals (organization_id, day, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
            WITH ${spansTable(2)}
            SELECT ?1, ${day}, d.currency, d.status, d.mode, d.trashed_at IS NOT NULL,
                   COUNT(*), SUM(d.amount_minor), SUM(d.refunded_minor)
              FROM ${gifts}
             GROUP BY 2, 3, 4, 5, 6`,
    ),
    named("DELETE FROM org_daily WHERE organization_id = ?1 AND day >= ?3 AND day < ?4"),
    named(orgDailyRollupSql(rollups)),
    ...rangeDeletes(ORG_SCOPE, "?1", FACETS),
    ...analyticsRollupSql(rollups).map(named),
    ...(opts.last
      ? [
          named(
            `INSERT INTO donation_daily_state (organization_id, time_zone)
            SELECT ?1, CASE WHEN (SELECT COALESCE(SUM(donation_count), 0) FROM donation_daily_totals WHERE organization_id = ?1)
                               = (SELECT COUNT(*) FROM donation WHERE organization_id = ?1) THEN ?7 END`,
          ),
        ]
      : []),
  ];
}

/** analytics_facet's and campaign_facet's facets (their CHECKs), for a delete that seeks the key. */
const FACETS = "'method', 'kind', 'net', 'campaign', 'refund'";
const CAMPAIGN_FACETS = "'net', 'refund'";

/** A stretch's deletes of `scope`'s facet and donor rows, a seek per currency: SQLite does not skip-scan. */
function rangeDeletes(scope: RollupScope, w: string, facets: string) {
  const currencies = (table: string) =>
    `WITH RECURSIVE cur(c) AS (SELECT MIN(currency) FROM ${table} WHERE ${scope.owner} = ${w}
                        UNION ALL SELECT (SELECT MIN(currency) FROM ${table} WHERE ${scope.owner} = ${w} AND currency > c) FROM cur WHERE c IS NOT NULL)
             SELECT c FROM cur WHERE c IS NOT NULL`;
  return [scope.facets, scope.donors].flatMap((table) =>
    ["period >= ?3 AND period < ?4", "period >= ?5 AND period < ?6"].map((range, i) =>
      named(
        `DELETE FROM ${table} WHERE ${scope.owner} = ${w} AND currency IN (${currencies(table)})
            ${table === scope.facets ? `AND facet IN (${facets})` : ""} AND grain = '${i ? "m" : "d"}' AND ${range}`,
      ),
    ),
  );
}

/** One stretch of a large campaign's rollups (decisions 037, 038), counted from its gifts by its own index;
 * with `last`, campaign_rollup_state names `tz` only if every counted gift is counted. */
export function campaignRebuildSql(opts: { last: boolean }): { sql: string; args: RebuildValue[] }[] {
  return [
    named("DELETE FROM campaign_rollup_state WHERE campaign_id = ?8"),
    ...rangeDeletes(CAMPAIGN_SCOPE, "?8", CAMPAIGN_FACETS),
    ...campaignRollupSql({
      spans: spansTable(2),
      from: "donation d INDEXED BY donation_campaign_idx CROSS JOIN s ON d.donated_at >= s.b AND d.donated_at < s.e",
      where: "d.campaign_id = ?8 AND d.organization_id = ?1",
      sign: "1",
    }).map(named),
    ...(opts.last
      ? [
          named(
            `INSERT INTO campaign_rollup_state (campaign_id, organization_id, time_zone, built_at)
             SELECT ?8, ?1, CASE WHEN (SELECT COALESCE(SUM(gift_count), 0) FROM campaign_facet WHERE campaign_id = ?8 AND facet = 'net' AND grain = 'd')
                                    = (SELECT COUNT(*) FROM donation d WHERE d.campaign_id = ?8 AND ${COUNTED_SQL("d")}) THEN ?7 END, ?9`,
          ),
        ]
      : []),
  ];
}

/** org_daily's organization-wide row per day and currency: the dashboard reads one, not one per campaign. */
export const ALL_CAMPAIGNS = "*";

/** org_daily of the gifts `from` yields (a FROM over donation `d` and spans `s`) times `sign`, added in;
 * `where` is a condition on the whole statement (a write's guard), ?1 the organization. */
export function orgDailyRollupSql(p: { spans: string; from: string; where: string; sign: string }) {
  const day = localDaySql("d.donated_at");
  const { spans, from, where, sign } = p;
  const net = "d.amount_minor - d.refunded_minor";
  // Grouped once by campaign, day and currency; the '*' rows are summed from those groups, not the gifts.
  return `INSERT INTO org_daily (organization_id, campaign_id, day, currency, raised_minor, donation_count, plan_raised_minor, plan_donation_count)
     WITH ${spans},
          g AS MATERIALIZED (
            SELECT COALESCE(d.campaign_id, '') AS c, ${day} AS day, d.currency AS currency, SUM(${net}) AS net, COUNT(*) AS n,
                   SUM((d.plan_id IS NOT NULL) * (${net})) AS pn, SUM(d.plan_id IS NOT NULL) AS pc
              FROM ${from}
             WHERE ${COUNTED_SQL("d")}
             GROUP BY 1, 2, 3)
     SELECT ?1, c, day, currency, ${sign} * net, ${sign} * n, ${sign} * pn, ${sign} * pc FROM g WHERE ${where}
     UNION ALL
     SELECT ?1, '${ALL_CAMPAIGNS}', day, currency, ${sign} * SUM(net), ${sign} * SUM(n), ${sign} * SUM(pn), ${sign} * SUM(pc)
       FROM g WHERE ${where} GROUP BY day, currency
     ON CONFLICT (organization_id, campaign_id, day, currency) DO UPDATE SET
       raised_minor = raised_minor + excluded.raised_minor, donation_count = donation_count + excluded.donation_count,
       plan_raised_minor = plan_raised_minor + excluded.plan_raised_minor,
       plan_donation_count = plan_donation_count + excluded.plan_donation_count`;
}

/** The analytics rollups (decision 032) of the gifts `from` yields, times `sign`: analytics_facet and
 * donor_period. `where` is a condition on the whole statement, ?1 the organization. */
export function analyticsRollupSql(p: { spans: string; from: string; where: string; sign: string }) {
  const day = localDaySql("d.donated_at");
  const { spans, from, where, sign } = p;
  const counted = COUNTED_SQL("d");
  const net = "d.amount_minor - d.refunded_minor";
  return [
    `INSERT INTO analytics_facet (organization_id, currency, facet, grain, period, key, gift_count, amount_minor)
     WITH ${spans},
          x AS (SELECT d.currency AS c, ${day} AS day, d.payment_method AS method,
                       CASE WHEN d.frequency = 'one_time' THEN 'one_time' ELSE 'recurring' END AS kind,
                       ${bucketOfSql(net)} AS bucket,
                       COUNT(*) AS n, SUM(${net}) AS a
                  FROM ${from} WHERE ${counted} AND ${where} GROUP BY 1, 2, 3, 4, 5),
          f AS (SELECT c, 'method' AS facet, day, method AS key, SUM(n) AS n, SUM(a) AS a FROM x GROUP BY c, day, method
                UNION ALL SELECT c, 'kind', day, kind, SUM(n), SUM(a) FROM x GROUP BY c, day, kind
                UNION ALL SELECT c, 'net', day, CAST(bucket AS TEXT), SUM(n), SUM(a) FROM x GROUP BY c, day, bucket)
     SELECT ?1, c, facet, 'd', day, key, ${sign} * n, ${sign} * a FROM f WHERE 1
     UNION ALL
     SELECT ?1, c, facet, 'm', substr(day, 1, 7), key, ${sign} * SUM(n), ${sign} * SUM(a) FROM f GROUP BY c, facet, substr(day, 1, 7), key
     ON CONFLICT (organization_id, currency, facet, grain, period, key) DO UPDATE SET ${addUp("gift_count, amount_minor")}`,
    `INSERT INTO analytics_facet (organization_id, currency, facet, grain, period, key, gift_count, amount_minor)
     WITH ${spans},
          x AS (SELECT d.currency AS c, ${day} AS day, d.campaign_id AS campaign, ${counted} AS counted, d.refunded_minor > 0 AS refunded,
                       COUNT(*) AS n, SUM(${net}) AS a, SUM(d.refunded_minor) AS r
                  FROM ${from}
                 WHERE d.mode = 'live' AND d.trashed_at IS NULL AND (${counted} OR d.refunded_minor > 0) AND ${where}
                 GROUP BY 1, 2, 3, 4, 5)
     SELECT ?1, c, 'campaign', 'd', day, campaign, ${sign} * SUM(n), ${sign} * SUM(a) FROM x
      WHERE counted AND campaign IS NOT NULL GROUP BY c, day, campaign
     UNION ALL
     SELECT ?1, c, 'campaign', 'm', substr(day, 1, 7), campaign, ${sign} * SUM(n), ${sign} * SUM(a) FROM x
      WHERE counted AND campaign IS NOT NULL GROUP BY c, substr(day, 1, 7), campaign
     UNION ALL
     SELECT ?1, c, 'refund', 'd', day, '', ${sign} * SUM(n), ${sign} * SUM(r) FROM x WHERE refunded GROUP BY c, day
     UNION ALL
     SELECT ?1, c, 'refund', 'm', substr(day, 1, 7), '', ${sign} * SUM(n), ${sign} * SUM(r) FROM x WHERE refunded GROUP BY c, substr(day, 1, 7)
     ON CONFLICT (organization_id, currency, facet, grain, period, key) DO UPDATE SET ${addUp("gift_count, amount_minor")}`,
    donorRollupSql(ORG_SCOPE, p),
  ];
}

/** Where a set of analytics rollups lives (decision 037): the organization's (decision 032) or a campaign's;
 * `ownerOf` is the SQL of a gift `d`'s owner. */
export interface RollupScope {
  donors: "donor_period" | "campaign_donor_period";
  facets: "analytics_facet" | "campaign_facet";
  owner: "organization_id" | "campaign_id";
  ownerOf: string;
}
export const ORG_SCOPE: RollupScope = {
  donors: "donor_period",
  facets: "analytics_facet",
  owner: "organization_id",
  ownerOf: "?1",
};
export const CAMPAIGN_SCOPE: RollupScope = {
  donors: "campaign_donor_period",
  facets: "campaign_facet",
  owner: "campaign_id",
  ownerOf: "d.campaign_id",
};

/** The histogram bucket (core/analytics.ts AMOUNT_BUCKETS, table analytics_bucket) of a net amount. */
const bucketOfSql = (net: string) =>
  `COALESCE((SELECT b.bucket FROM analytics_bucket b WHERE b.lo <= ${net} ORDER BY b.lo DESC LIMIT 1), 0)`;

const addUp = (cols: string) =>
  cols
    .split(", ")
    .map((c) => `${c} = ${c} + excluded.${c}`)
    .join(", ");

/** Each donor's counted gifts by day and month, with the donor's sketch value, into `scope`'s table. */
function donorRollupSql(scope: RollupScope, p: { spans: string; from: string; where: string; sign: string }) {
  const day = localDaySql("d.donated_at");
  const { spans, from, where, sign } = p;
  const sketch = "COALESCE((SELECT dn.sketch FROM donor dn WHERE dn.id = x.donor), 0)";
  return `INSERT INTO ${scope.donors} (${scope.owner}, currency, grain, period, donor_id, sketch, gift_count, amount_minor, one_time_count)
     WITH ${spans},
          x AS (SELECT ${scope.ownerOf} AS w, d.currency AS c, ${day} AS day, d.donor_id AS donor, COUNT(*) AS n,
                       SUM(d.amount_minor - d.refunded_minor) AS a, SUM(d.frequency = 'one_time') AS o
                  FROM ${from} WHERE ${COUNTED_SQL("d")} AND d.donor_id IS NOT NULL AND ${where} GROUP BY 1, 2, 3, 4)
     SELECT w, c, 'd', day, donor, ${sketch}, ${sign} * n, ${sign} * a, ${sign} * o
       FROM x WHERE 1
     UNION ALL
     SELECT w, c, 'm', substr(day, 1, 7), donor, ${sketch}, ${sign} * SUM(n), ${sign} * SUM(a), ${sign} * SUM(o)
       FROM x GROUP BY w, c, substr(day, 1, 7), donor
     ON CONFLICT (${scope.owner}, currency, grain, period, donor_id) DO UPDATE SET ${addUp("gift_count, amount_minor, one_time_count")}`;
}

/** A campaign's analytics rollups (decision 037) of the gifts `from` yields, times `sign`; `where` is a
 * condition on each gift (which campaigns are built, a write's guard). */
export function campaignRollupSql(p: { spans: string; from: string; where: string; sign: string }) {
  const day = localDaySql("d.donated_at");
  const { spans, from, sign } = p;
  const where = `d.campaign_id IS NOT NULL AND ${p.where}`;
  const counted = COUNTED_SQL("d");
  const net = "d.amount_minor - d.refunded_minor";
  return [
    `INSERT INTO campaign_facet (campaign_id, currency, facet, grain, period, key, gift_count, amount_minor)
     WITH ${spans},
          x AS (SELECT d.campaign_id AS w, d.currency AS c, ${day} AS day, ${counted} AS counted, d.refunded_minor > 0 AS refunded,
                       CASE WHEN ${counted} THEN ${bucketOfSql(net)} END AS bucket,
                       COUNT(*) AS n, SUM(${net}) AS a, SUM(d.refunded_minor) AS r
                  FROM ${from}
                 WHERE d.mode = 'live' AND d.trashed_at IS NULL AND (${counted} OR d.refunded_minor > 0) AND ${where}
                 GROUP BY 1, 2, 3, 4, 5, 6)
     SELECT w, c, 'net', 'd', day, CAST(bucket AS TEXT), ${sign} * SUM(n), ${sign} * SUM(a) FROM x WHERE counted GROUP BY w, c, day, bucket
     UNION ALL
     SELECT w, c, 'net', 'm', substr(day, 1, 7), CAST(bucket AS TEXT), ${sign} * SUM(n), ${sign} * SUM(a) FROM x WHERE counted
      GROUP BY w, c, substr(day, 1, 7), bucket
     UNION ALL
     SELECT w, c, 'refund', 'd', day, '', ${sign} * SUM(n), ${sign} * SUM(r) FROM x WHERE refunded GROUP BY w, c, day
     UNION ALL
     SELECT w, c, 'refund', 'm', substr(day, 1, 7), '', ${sign} * SUM(n), ${sign} * SUM(r) FROM x WHERE refunded
      GROUP BY w, c, substr(day, 1, 7)
     ON CONFLICT (campaign_id, currency, facet, grain, period, key) DO UPDATE SET ${addUp("gift_count, amount_minor")}`,
    donorRollupSql(CAMPAIGN_SCOPE, { spans, from, where, sign }),
  ];
}
