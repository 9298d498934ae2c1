// Analytics rollups kept in the same D1 batch as every donation change (DESIGN §4; decisions 013, 032, 038),
// built only through `donationChangeStatements` (donation-change.ts, decision 020).
import { amountBucket } from "@core/analytics";
import { COUNTED_SQL, isCounted } from "@core/status";
import { dayKey, localDay } from "@core/time";
import type { Database } from "../db/databases";
import type { Camel, DonationRow } from "../db/rows";
import type { Guard } from "../lib/guard";
import {
  BUILD_TABLES,
  type BuildOptions,
  buildInStretches,
  dropOtherZones,
  type RollupOwner,
  zoneRows,
} from "./rollup-builds";
import {
  ALL_CAMPAIGNS,
  analyticsRollupSql,
  CAMPAIGN_SCOPE,
  campaignRollupSql,
  dailySpans,
  localDaySql,
  ORG_SCOPE,
  orgDailyRollupSql,
  type RollupScope,
  spansTable,
} from "./rollup-sql";

/** What the rollups and stats read of a donation: its own columns, camelCase (facts() in donation-change.ts). */
export const FACT_COLUMNS = [
  "id",
  "organization_id",
  "campaign_id",
  "donor_id",
  "status",
  "mode",
  "trashed_at",
  "amount_minor",
  "refunded_minor",
  "currency",
  "donated_at",
  "plan_id",
  "frequency",
  "payment_method",
] as const satisfies readonly (keyof DonationRow)[];
export type DonationFacts = Camel<Pick<DonationRow, (typeof FACT_COLUMNS)[number]>>;

export { ALL_CAMPAIGNS } from "./rollup-sql";

function contribution(f: DonationFacts | null, timeZone: string) {
  if (!f || !isCounted(f)) return null;
  return {
    key: `${f.campaignId ?? ""}|${localDay(f.donatedAt, timeZone)}|${f.currency}`,
    campaignId: f.campaignId ?? "",
    day: localDay(f.donatedAt, timeZone),
    currency: f.currency,
    amount: f.amountMinor - f.refundedMinor,
    plan: f.planId ? 1 : 0,
  };
}

/** One donation change's deltas; `campaignStatsDeltas` must run after the row is written or deleted. */
export function rollupStatements(
  db: Database,
  before: DonationFacts | null,
  after: DonationFacts | null,
  timeZone: string,
  /** Only if this write won (decisions 006, 020). Required: a delta without a guard counts a lost race. */
  guard: Guard,
): D1PreparedStatement[] {
  const org = (after ?? before)?.organizationId;
  if (!org) return [];
  const b = contribution(before, timeZone);
  const a = contribution(after, timeZone);
  const deltas = new Map<
    string,
    {
      campaignId: string;
      day: string;
      currency: string;
      amount: number;
      count: number;
      planAmount: number;
      planCount: number;
    }
  >();
  const expand = (c: ReturnType<typeof contribution>) =>
    c ? [c, { ...c, campaignId: ALL_CAMPAIGNS, key: `${ALL_CAMPAIGNS}|${c.day}|${c.currency}` }] : [];
  for (const [c, sign] of [
    ...expand(b).map((x) => [x, -1] as const),
    ...expand(a).map((x) => [x, 1] as const),
  ]) {
    const d = deltas.get(c.key) ?? {
      campaignId: c.campaignId,
      day: c.day,
      currency: c.currency,
      amount: 0,
      count: 0,
      planAmount: 0,
      planCount: 0,
    };
    d.amount += sign * c.amount;
    d.count += sign;
    d.planAmount += sign * c.plan * c.amount;
    d.planCount += sign * c.plan;
    deltas.set(c.key, d);
  }
  const stmts: D1PreparedStatement[] = [];
  for (const d of deltas.values()) {
    if (d.amount === 0 && d.count === 0 && d.planAmount === 0 && d.planCount === 0) continue;
    stmts.push(
      db
        .prepare(
          `INSERT INTO org_daily (organization_id, campaign_id, day, currency, raised_minor, donation_count, plan_raised_minor, plan_donation_count)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE ${guard.sql(9)}
           ON CONFLICT (organization_id, campaign_id, day, currency) DO UPDATE SET
             raised_minor = raised_minor + excluded.raised_minor, donation_count = donation_count + excluded.donation_count,
             plan_raised_minor = plan_raised_minor + excluded.plan_raised_minor,
             plan_donation_count = plan_donation_count + excluded.plan_donation_count`,
        )
        .bind(
          org,
          d.campaignId,
          d.day,
          d.currency,
          d.amount,
          d.count,
          d.planAmount,
          d.planCount,
          ...guard.args,
        ),
    );
  }
  // donation_totals: every donation (any status), by currency × status × mode × trash.
  for (const t of totalsDeltas(before, after, () => "")) {
    stmts.push(
      db
        .prepare(
          `INSERT INTO donation_totals (organization_id, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE ${guard.sql(9)}
           ON CONFLICT (organization_id, currency, status, mode, trashed) DO UPDATE SET
             donation_count = donation_count + excluded.donation_count, amount_minor = amount_minor + excluded.amount_minor,
             refunded_minor = refunded_minor + excluded.refunded_minor`,
        )
        .bind(
          org,
          t.f.currency,
          t.f.status,
          t.f.mode,
          t.f.trashedAt === null ? 0 : 1,
          t.count,
          t.amount,
          t.refunded,
          ...guard.args,
        ),
    );
  }
  stmts.push(...analyticsStatements(db, org, before, after, timeZone, guard));
  stmts.push(...dailyTotalsStatements(db, org, before, after, timeZone, guard));
  return stmts;
}

type FacetRow = [
  owner: string,
  currency: string,
  facet: string,
  grain: "d" | "m",
  period: string,
  key: string,
  count: number,
  amount: number,
  at: number,
];
type DonorRow = [
  owner: string,
  currency: string,
  grain: "d" | "m",
  period: string,
  donorId: string,
  count: number,
  amount: number,
  oneTime: number,
  at: number,
];

/** What one gift puts, by day and month, in the organization's analytics rollups (decision 032) and its
 * campaign's (decision 037): rows start with the owner, end with the instant (`builtSql`, decision 043). */
function analyticsContribution(f: DonationFacts | null, timeZone: string) {
  const org = { facets: [] as FacetRow[], donors: [] as DonorRow[] };
  const campaign = { facets: [] as FacetRow[], donors: [] as DonorRow[] };
  if (!f) return { org, campaign };
  const day = dayKey(f.donatedAt, timeZone);
  const month = day.slice(0, 7);
  const net = f.amountMinor - f.refundedMinor;
  const at = f.donatedAt;
  const o = f.organizationId;
  const c = f.campaignId;
  const periods = [
    ["d", day],
    ["m", month],
  ] as const;
  if (isCounted(f)) {
    const kind = f.frequency === "one_time" ? "one_time" : "recurring";
    const oneTime = kind === "one_time" ? 1 : 0;
    const bucket = String(amountBucket(net));
    for (const [grain, period] of periods) {
      org.facets.push([o, f.currency, "method", grain, period, f.paymentMethod ?? "", 1, net, at]);
      org.facets.push([o, f.currency, "kind", grain, period, kind, 1, net, at]);
      org.facets.push([o, f.currency, "net", grain, period, bucket, 1, net, at]);
      if (c) org.facets.push([o, f.currency, "campaign", grain, period, c, 1, net, at]);
      if (f.donorId) org.donors.push([o, f.currency, grain, period, f.donorId, 1, net, oneTime, at]);
      if (c) {
        campaign.facets.push([c, f.currency, "net", grain, period, bucket, 1, net, at]);
        if (f.donorId) campaign.donors.push([c, f.currency, grain, period, f.donorId, 1, net, oneTime, at]);
      }
    }
  }
  if (f.mode === "live" && f.trashedAt === null && f.refundedMinor > 0) {
    for (const [grain, period] of periods) {
      org.facets.push([o, f.currency, "refund", grain, period, "", 1, f.refundedMinor, at]);
      if (c) campaign.facets.push([c, f.currency, "refund", grain, period, "", 1, f.refundedMinor, at]);
    }
  }
  return { org, campaign };
}

/** `after` minus `before`, keyed by a row's first `keyLength` columns and its instant (a gift moved to
 * another date is two rows); the values between are summed, unchanged keys dropped. */
function netDeltas<T extends (string | number)[]>(before: T[], after: T[], keyLength: number): T[] {
  const out = new Map<string, T>();
  for (const [rows, sign] of [
    [before, -1],
    [after, 1],
  ] as const) {
    for (const r of rows) {
      const last = r.length - 1;
      const k = JSON.stringify([...r.slice(0, keyLength), r[last]]);
      const cur =
        out.get(k) ?? ([...r.slice(0, keyLength), ...r.slice(keyLength, last).map(() => 0), r[last]] as T);
      for (let i = keyLength; i < last; i++) (cur[i] as number) += sign * (r[i] as number);
      out.set(k, cur);
    }
  }
  return [...out.values()].filter((r) => r.slice(keyLength, -1).some((v) => v !== 0));
}

/** A change's analytics deltas: the organization's (decision 032) and its campaigns' (decision 037), each
 * only while built in `timeZone` and if the write won. A donor's period row goes with its last gift there. */
function analyticsStatements(
  db: Database,
  org: string,
  before: DonationFacts | null,
  after: DonationFacts | null,
  timeZone: string,
  guard: Guard,
): D1PreparedStatement[] {
  const b = analyticsContribution(before, timeZone);
  const a = analyticsContribution(after, timeZone);
  const id = after?.id ?? before?.id ?? "";
  const campaigns = [...new Set([before?.campaignId, after?.campaignId].filter((c): c is string => !!c))];
  return [
    ...scopeStatements(db, ORG_SCOPE, [org], b.org, a.org, { org, id, timeZone, guard }),
    ...(campaigns.length
      ? [
          ...scopeStatements(db, CAMPAIGN_SCOPE, campaigns, b.campaign, a.campaign, {
            org,
            id,
            timeZone,
            guard,
          }),
          // A campaign built, or being built, in another zone took no delta: read its gifts until rebuilt.
          ...zoneRows("campaign_id").map((table) =>
            db
              .prepare(
                `DELETE FROM ${table} WHERE campaign_id IN (SELECT value FROM json_each(?1)) AND time_zone != ?2 AND ${guard.sql(3)}`,
              )
              .bind(JSON.stringify(campaigns), timeZone, ...guard.args),
          ),
        ]
      : []),
  ];
}

/** SQL: owner `w`'s rollups hold a row of a gift dated `at` in zone `tz`: built there, or being rebuilt there
 * with the gift's local day built (decision 043). A build's progress is a local day's start. */
export function builtSql(owner: RollupOwner, w: string, tz: string, at: string) {
  const { state, build } = BUILD_TABLES[owner];
  return `(EXISTS (SELECT 1 FROM ${state} WHERE ${owner} = ${w} AND time_zone = ${tz})
           OR EXISTS (SELECT 1 FROM ${build} b WHERE b.${owner} = ${w} AND b.time_zone = ${tz} AND ${at} < b.built_until))`;
}

/** One scope's facet and donor deltas of a change (`owners`: the scope's owners it touches). */
function scopeStatements(
  db: Database,
  scope: RollupScope,
  owners: string[],
  b: ReturnType<typeof analyticsContribution>["org"],
  a: ReturnType<typeof analyticsContribution>["org"],
  c: { org: string; id: string; timeZone: string; guard: Guard },
): D1PreparedStatement[] {
  const { guard } = c;
  const built = builtSql(scope.owner, "value ->> 0", "?3", "value ->> 8");
  const facets = netDeltas(b.facets, a.facets, 6);
  const stmts: D1PreparedStatement[] = [];
  if (facets.length)
    stmts.push(
      db
        .prepare(
          `INSERT INTO ${scope.facets} (${scope.owner}, currency, facet, grain, period, key, gift_count, amount_minor)
           SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7
             FROM json_each(?2) WHERE ${built} AND ${guard.sql(4)}
           ON CONFLICT (${scope.owner}, currency, facet, grain, period, key) DO UPDATE SET
             gift_count = gift_count + excluded.gift_count, amount_minor = amount_minor + excluded.amount_minor`,
        )
        .bind(c.org, JSON.stringify(facets), c.timeZone, ...guard.args),
    );
  // After the change, the donor is the stored row's own donor_id, never the request's idea of it (a webhook's
  // donor found by e-mail may be another request's). Unchanged contributions write nothing.
  if (JSON.stringify(b.donors) === JSON.stringify(a.donors)) return stmts;
  const upsert = (rows: string, donor: string) =>
    `INSERT INTO ${scope.donors} (${scope.owner}, currency, grain, period, donor_id, sketch, gift_count, amount_minor, one_time_count)
     SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, ${donor}, COALESCE((SELECT dn.sketch FROM donor dn WHERE dn.id = ${donor}), 0),
            value ->> 5, value ->> 6, value ->> 7
       FROM ${rows} WHERE ${built} AND ${guard.sql(5)}
     ON CONFLICT (${scope.owner}, currency, grain, period, donor_id) DO UPDATE SET
       gift_count = gift_count + excluded.gift_count, amount_minor = amount_minor + excluded.amount_minor,
       one_time_count = one_time_count + excluded.one_time_count`;
  if (b.donors.length) {
    // The rows before, negated (nothing after them to net against).
    const minus = netDeltas(b.donors, [], 5);
    stmts.push(
      db
        .prepare(upsert("json_each(?2)", "value ->> 4"))
        .bind(c.org, JSON.stringify(minus), c.timeZone, c.id, ...guard.args),
    );
  }
  if (a.donors.length)
    stmts.push(
      db
        .prepare(
          upsert("json_each(?2) CROSS JOIN donation d ON d.id = ?4 AND d.donor_id IS NOT NULL", "d.donor_id"),
        )
        .bind(c.org, JSON.stringify(a.donors), c.timeZone, c.id, ...guard.args),
    );
  stmts.push(
    db
      .prepare(
        // By the donor index, named: left alone, the planner reads every row of the organization.
        `DELETE FROM ${scope.donors} INDEXED BY ${scope.donors}_donor_idx
          WHERE donor_id IN (SELECT value FROM json_each(?2) UNION SELECT d.donor_id FROM donation d WHERE d.id = ?3)
            AND ${scope.owner} IN (SELECT value FROM json_each(?1)) AND gift_count <= 0`,
      )
      .bind(JSON.stringify(owners), JSON.stringify([...new Set(b.donors.map((d) => d[4]))]), c.id),
  );
  return stmts;
}

/** The stats rows of the campaigns a change touches, moved by its own difference (after the row write;
 * guarded by its audit row). The donor count moves where the donor starts or stops counting there, found
 * by the donor's own gifts: a recount would read a general fund's every gift (decision 037). */
export function campaignStatsDeltas(
  db: Database,
  before: DonationFacts | null,
  after: DonationFacts | null,
  guard: Guard,
): D1PreparedStatement[] {
  const org = (after ?? before)?.organizationId;
  const id = after?.id ?? before?.id;
  if (!org || !id) return [];
  const campaigns = new Set([before?.campaignId, after?.campaignId].filter((c): c is string => !!c));
  const other = (donor: string) =>
    `EXISTS (SELECT 1 FROM donation x INDEXED BY donation_donor_idx WHERE x.donor_id = ${donor} AND x.campaign_id = ?1
                AND ${COUNTED_SQL("x")} AND x.id != ?6)`;
  return [...campaigns].map((c) => {
    const mine = !!before && before.campaignId === c;
    const counted = mine && isCounted(before) ? 1 : 0;
    const live = mine && before.mode === "live" && before.trashedAt === null;
    return db
      .prepare(
        // ?1 campaign, ?2 organization, ?3 the gift before: counted here (0/1), ?4 its net, ?5 its
        // donor, ?6 the gift's id, ?7 its refund counted here before, ?8 now; then the guard's.
        `INSERT INTO campaign_stats (campaign_id, organization_id, raised_minor, donation_count, donor_count, refunded_minor, updated_at)
         SELECT ?1, ?2, (CASE WHEN a.cnt THEN a.net ELSE 0 END) - ?3 * ?4, a.cnt - ?3,
                (a.cnt AND a.donor IS NOT NULL AND NOT (?3 AND ?5 IS a.donor) AND NOT ${other("a.donor")})
                - (?3 AND ?5 IS NOT NULL AND NOT (a.cnt AND a.donor IS ?5) AND NOT ${other("?5")}),
                a.ref - ?7, ?8
           FROM (SELECT COALESCE(MAX(d.campaign_id = ?1 AND ${COUNTED_SQL("d")}), 0) AS cnt,
                        MAX(d.amount_minor - d.refunded_minor) AS net, MAX(d.donor_id) AS donor,
                        COALESCE(MAX(CASE WHEN d.campaign_id = ?1 AND d.mode = 'live' AND d.trashed_at IS NULL THEN d.refunded_minor END), 0) AS ref
                   FROM donation d WHERE d.id = ?6) a
          WHERE ${guard.sql(9)}
         ON CONFLICT (campaign_id) DO UPDATE SET raised_minor = raised_minor + excluded.raised_minor,
           donation_count = donation_count + excluded.donation_count, donor_count = donor_count + excluded.donor_count,
           refunded_minor = refunded_minor + excluded.refunded_minor, updated_at = excluded.updated_at`,
      )
      .bind(
        c,
        org,
        counted,
        mine ? before.amountMinor - before.refundedMinor : 0,
        mine ? before.donorId : null,
        id,
        live ? before.refundedMinor : 0,
        Date.now(),
        ...guard.args,
      );
  });
}

/** What a change moves in donation_totals / donation_daily_totals per key; unchanged keys are dropped. */
function totalsDeltas(
  before: DonationFacts | null,
  after: DonationFacts | null,
  dayOf: (f: DonationFacts) => string,
) {
  const deltas = new Map<
    string,
    { f: DonationFacts; day: string; count: number; amount: number; refunded: number }
  >();
  for (const [f, sign] of [
    [before, -1],
    [after, 1],
  ] as const) {
    if (!f) continue;
    const day = dayOf(f);
    const key = `${day}|${f.currency}|${f.status}|${f.mode}|${f.trashedAt === null ? 0 : 1}`;
    const t = deltas.get(key) ?? { f, day, count: 0, amount: 0, refunded: 0 };
    t.count += sign;
    t.amount += sign * f.amountMinor;
    t.refunded += sign * f.refundedMinor;
    deltas.set(key, t);
  }
  return [...deltas.values()].filter((t) => t.count !== 0 || t.amount !== 0 || t.refunded !== 0);
}

/** donation_daily_totals deltas, only while donation_daily_state names `timeZone`; a write whose day was
 * computed in another zone drops the state, so the list totals from the donations (decision 013). */
function dailyTotalsStatements(
  db: Database,
  org: string,
  before: DonationFacts | null,
  after: DonationFacts | null,
  timeZone: string,
  guard: Guard,
): D1PreparedStatement[] {
  const stmts: D1PreparedStatement[] = [];
  for (const t of totalsDeltas(before, after, (f) => dayKey(f.donatedAt, timeZone))) {
    stmts.push(
      db
        .prepare(
          `INSERT INTO donation_daily_totals (organization_id, day, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
            WHERE ${builtSql("organization_id", "?1", "?10", "?11")} AND ${guard.sql(12)}
           ON CONFLICT (organization_id, day, currency, status, mode, trashed) DO UPDATE SET
             donation_count = donation_count + excluded.donation_count, amount_minor = amount_minor + excluded.amount_minor,
             refunded_minor = refunded_minor + excluded.refunded_minor`,
        )
        .bind(
          org,
          t.day,
          t.f.currency,
          t.f.status,
          t.f.mode,
          t.f.trashedAt === null ? 0 : 1,
          t.count,
          t.amount,
          t.refunded,
          timeZone,
          // Any gift of the day answers for it: a build's progress is a local day's start.
          t.f.donatedAt,
          ...guard.args,
        ),
    );
  }
  if (stmts.length) stmts.push(...dropOtherZones(db, org, timeZone, guard));
  return stmts;
}

/** campaign_stats recounted from gifts `d`: `campaign` is each row's campaign, `from` the FROM … WHERE
 * (and GROUP BY) naming the gifts; ?2 is the organization, ?3 now. */
export const campaignRecountSql = (campaign: string, from: string) =>
  `INSERT INTO campaign_stats (campaign_id, organization_id, raised_minor, donation_count, donor_count, refunded_minor, updated_at)
   SELECT ${campaign}, ?2,
     COALESCE(SUM(CASE WHEN ${COUNTED_SQL("d")} THEN d.amount_minor - d.refunded_minor END), 0),
     COUNT(CASE WHEN ${COUNTED_SQL("d")} THEN 1 END),
     COUNT(DISTINCT CASE WHEN ${COUNTED_SQL("d")} THEN d.donor_id END),
     COALESCE(SUM(CASE WHEN d.mode = 'live' AND d.trashed_at IS NULL THEN d.refunded_minor END), 0),
     ?3
   ${from}
   ON CONFLICT (campaign_id) DO UPDATE SET raised_minor = excluded.raised_minor, donation_count = excluded.donation_count,
     donor_count = excluded.donor_count, refunded_minor = excluded.refunded_minor, updated_at = excluded.updated_at`;

/** Recounts every campaign `donorId` gave to: a donor merge changes their distinct-donor counts. */
export function donorCampaignStatsStatement(db: Database, org: string, donorId: string, guard: Guard) {
  return db
    .prepare(
      campaignRecountSql(
        "d.campaign_id",
        `FROM donation d
        WHERE d.campaign_id IN (SELECT x.campaign_id FROM donation x WHERE x.donor_id = ?1 AND x.campaign_id IS NOT NULL)
          AND ${guard.sql(4)}
        GROUP BY d.campaign_id`,
      ),
    )
    .bind(donorId, org, Date.now(), ...guard.args);
}

/** Builds the organization's per-day rollups in `timeZone` in stretches (decisions 038, 043), resuming or
 * starting; stops at `deadline` or `maxBatches`. Returns whether built. Meanwhile org_daily stays in the old
 * zone beyond the built days: totals are right, a gift near midnight may sit on the neighbouring day. */
export const buildDailyRollups = (
  db: Database,
  organizationId: string,
  timeZone: string,
  opts: BuildOptions = {},
) => buildInStretches(db, { organizationId }, timeZone, opts);

/** Every per-day rollup counted again from the donations, to the end (tests). Returns whether built. */
export const rebuildDailyRollups = (
  db: Database,
  organizationId: string,
  timeZone: string,
  batchGifts?: number,
) => buildDailyRollups(db, organizationId, timeZone, { restart: true, batchGifts });

/** Gifts written at once (an import's batch, its undo; decision 028) and the change token their write gave
 * them: only rows carrying it count, so the deltas are exactly those of the rows that write touched. */
export interface GiftSet {
  organizationId: string;
  idsJson: string;
  token: string;
  /** [from, until) holding every gift's instant: the zone's offsets are computed over it. */
  from: number;
  until: number;
}

/** A gift set's rollup deltas (`sign` 1 after inserting, -1 before deleting), computed in SQL from the rows
 * on their local days by the zone's spans. Every statement carries `guard`. */
export function giftSetRollupStatements(
  db: Database,
  set: GiftSet,
  timeZone: string,
  sign: 1 | -1,
  guard: Guard,
): D1PreparedStatement[] {
  const spans = JSON.stringify(dailySpans(set.from, set.until, timeZone));
  const day = localDaySql("d.donated_at");
  // ?1 org, ?2 ids, ?3 token, ?4 sign, then the statement's own and the guard's. CROSS JOIN fixes the loop
  // order: the ids outside, each gift by its key, never the organization's whole date index.
  const rows = `json_each(?2) i CROSS JOIN donation d ON d.id = i.value AND d.organization_id = ?1 AND d.change_token = ?3`;
  const bind = (sql: string, ...more: unknown[]) =>
    db.prepare(sql).bind(set.organizationId, set.idsJson, set.token, sign, ...more, ...guard.args);
  return [
    bind(
      orgDailyRollupSql({
        spans: spansTable(5),
        from: `${rows} CROSS JOIN s ON d.donated_at >= s.b AND d.donated_at < s.e`,
        where: guard.sql(6),
        sign: "?4",
      }),
      spans,
    ),
    bind(
      `INSERT INTO donation_totals (organization_id, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
       SELECT ?1, d.currency, d.status, d.mode, d.trashed_at IS NOT NULL, ?4 * COUNT(*), ?4 * SUM(d.amount_minor), ?4 * SUM(d.refunded_minor)
         FROM ${rows}
        WHERE ${guard.sql(5)}
        GROUP BY 2, 3, 4, 5
       ON CONFLICT (organization_id, currency, status, mode, trashed) DO UPDATE SET
         donation_count = donation_count + excluded.donation_count, amount_minor = amount_minor + excluded.amount_minor,
         refunded_minor = refunded_minor + excluded.refunded_minor`,
    ),
    bind(
      `INSERT INTO donation_daily_totals (organization_id, day, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
       WITH ${spansTable(5)}
       SELECT ?1, ${day}, d.currency, d.status, d.mode, d.trashed_at IS NOT NULL, ?4 * COUNT(*), ?4 * SUM(d.amount_minor), ?4 * SUM(d.refunded_minor)
         FROM ${rows} CROSS JOIN s ON d.donated_at >= s.b AND d.donated_at < s.e
        WHERE ${builtSql("organization_id", "?1", "?6", "d.donated_at")} AND ${guard.sql(7)}
        GROUP BY 2, 3, 4, 5, 6
       ON CONFLICT (organization_id, day, currency, status, mode, trashed) DO UPDATE SET
         donation_count = donation_count + excluded.donation_count, amount_minor = amount_minor + excluded.amount_minor,
         refunded_minor = refunded_minor + excluded.refunded_minor`,
      spans,
      timeZone,
    ),
    ...analyticsRollupSql({
      spans: spansTable(5),
      from: `${rows} CROSS JOIN s ON d.donated_at >= s.b AND d.donated_at < s.e`,
      where: `${builtSql("organization_id", "?1", "?6", "d.donated_at")} AND ${guard.sql(7)}`,
      sign: "?4",
    }).map((sql) => bind(sql, spans, timeZone)),
    // The set's campaigns with rollups of their own (decision 037). The organization-wide test is
    // uncorrelated, computed once, so an organization without a built campaign probes none per gift.
    ...campaignRollupSql({
      spans: spansTable(5),
      from: `${rows} CROSS JOIN s ON d.donated_at >= s.b AND d.donated_at < s.e`,
      where: `(EXISTS (SELECT 1 FROM campaign_rollup_state WHERE organization_id = ?1 AND time_zone = ?6)
               OR EXISTS (SELECT 1 FROM campaign_rollup_build WHERE organization_id = ?1 AND time_zone = ?6))
              AND ${builtSql("campaign_id", "d.campaign_id", "?6", "d.donated_at")}
              AND ${guard.sql(7)}`,
      sign: "?4",
    }).map((sql) => bind(sql, spans, timeZone)),
    // Donor period rows go with their last gift (an undo runs this before deleting: the deltas zeroed them).
    ...(sign === -1
      ? [
          bind(
            `DELETE FROM donor_period INDEXED BY donor_period_donor_idx
              WHERE donor_id IN (SELECT d.donor_id FROM ${rows} WHERE ${guard.sql(5)}) AND organization_id = ?1 AND gift_count <= 0`,
          ),
          bind(
            `DELETE FROM campaign_donor_period INDEXED BY campaign_donor_period_donor_idx
              WHERE donor_id IN (SELECT d.donor_id FROM ${rows} WHERE ${guard.sql(5)})
                AND campaign_id IN (SELECT d.campaign_id FROM ${rows}) AND gift_count <= 0`,
          ),
        ]
      : []),
    // A campaign built, or being built, in another zone: read from its gifts until rebuilt.
    ...zoneRows("campaign_id").map((table) =>
      bind(
        `DELETE FROM ${table}
          WHERE EXISTS (SELECT 1 FROM ${table} WHERE organization_id = ?1 AND time_zone != ?5)
            AND campaign_id IN (SELECT d.campaign_id FROM ${rows}) AND time_zone != ?5 AND ${guard.sql(6)}`,
        timeZone,
      ),
    ),
    // Days counted in another zone: the list totals from the donations until rebuilt (decision 013).
    ...dropOtherZones(db, set.organizationId, timeZone, guard),
  ];
}

/** A gift set's campaign_stats deltas (`sign` as above), a donor counted where the set adds or takes their
 * only counted gift in a campaign: a batch reads its rows and its donors' gifts, never a whole campaign. */
export function giftSetCampaignStatements(db: Database, set: GiftSet, sign: 1 | -1, guard: Guard) {
  return db
    .prepare(
      `INSERT INTO campaign_stats (campaign_id, organization_id, raised_minor, donation_count, donor_count, refunded_minor, updated_at)
       SELECT d.campaign_id, ?1,
              ?4 * COALESCE(SUM(CASE WHEN ${COUNTED_SQL("d")} THEN d.amount_minor - d.refunded_minor END), 0),
              ?4 * COUNT(CASE WHEN ${COUNTED_SQL("d")} THEN 1 END),
              ?4 * COUNT(DISTINCT CASE WHEN ${COUNTED_SQL("d")} AND d.donor_id IS NOT NULL AND NOT EXISTS (
                  SELECT 1 FROM donation x WHERE x.donor_id = d.donor_id AND x.campaign_id = d.campaign_id
                     AND ${COUNTED_SQL("x")} AND x.change_token IS NOT ?3) THEN d.donor_id END),
              ?4 * COALESCE(SUM(CASE WHEN d.mode = 'live' AND d.trashed_at IS NULL THEN d.refunded_minor END), 0),
              ?5
         FROM json_each(?2) i CROSS JOIN donation d ON d.id = i.value AND d.organization_id = ?1 AND d.change_token = ?3
        WHERE d.campaign_id IS NOT NULL AND ${guard.sql(6)}
        GROUP BY d.campaign_id
       ON CONFLICT (campaign_id) DO UPDATE SET raised_minor = raised_minor + excluded.raised_minor,
         donation_count = donation_count + excluded.donation_count, donor_count = donor_count + excluded.donor_count,
         refunded_minor = refunded_minor + excluded.refunded_minor, updated_at = excluded.updated_at`,
    )
    .bind(set.organizationId, set.idsJson, set.token, sign, Date.now(), ...guard.args);
}
