/**
 * Analytics rollups, maintained in the same D1 batch as every donation change (DESIGN §4): deltas
 * into org_daily (org × campaign × local day × currency), donation_totals, donation_daily_totals
 * (decision 013), the analytics rollups (decision 032) and the campaigns' stats moved by each
 * change's difference. `buildDailyRollups` recomputes the per-day ones from the donations (decision
 * 038); tests prove both agree. Donation changes build these through
 * `donationChangeStatements` (worker/donations/write.ts, decision 020), never directly.
 */
import { amountBucket } from "@core/analytics";
import { COUNTED_SQL, isCounted } from "@core/status";
import { dayKey, localDay } from "@core/time";
import type { Database } from "../db/databases";
import type { Guard } from "../lib/guard";
import {
  ALL_CAMPAIGNS,
  analyticsRollupSql,
  CAMPAIGN_SCOPE,
  campaignRollupSql,
  dailyRebuildSql,
  dailySpans,
  localDaySql,
  ORG_SCOPE,
  orgDailyRollupSql,
  type RollupScope,
  spansTable,
} from "./daily-totals-sql";
import {
  BUILD_TABLES,
  type BuildOptions,
  buildInStretches,
  dropOtherZones,
  type RollupOwner,
  zoneRows,
} from "./rollup-builds";

export interface DonationFacts {
  /** The gift's id: the rollups read what the stored row says where the request cannot know it. */
  id?: string;
  organizationId: string;
  campaignId: string | null;
  donorId: string | null;
  status: string;
  mode: string;
  trashedAt: number | null;
  amountMinor: number;
  refundedMinor: number;
  currency: string;
  donatedAt: number;
  /** The recurring plan the gift belongs to: its part of org_daily is kept apart too (issue 24). */
  planId: string | null;
  /** Breakdowns of the dashboard (analytics_facet, decision 032). */
  frequency: string;
  paymentMethod: string;
}

export { ALL_CAMPAIGNS } from "./daily-totals-sql";

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

/**
 * The delta statements of one donation change (the campaigns' stats are `campaignStatsDeltas`,
 * which must run after the row is written or deleted).
 */
export function rollupStatements(
  db: Database,
  before: DonationFacts | null,
  after: DonationFacts | null,
  timeZone: string,
  /**
   * Apply only if this donation's write won (decisions 006, 020): the row carries the change token
   * the write set (an idempotent insert may have been ignored, a guarded update may have matched
   * nothing). Required: a delta without a guard counts a lost race.
   */
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

/**
 * What one gift puts in the analytics rollups at day and month grain: the organization's
 * (analytics_facet, donor_period; decision 032) and its campaign's (campaign_facet,
 * campaign_donor_period; decision 037, applied only where the campaign's are built). Each row
 * starts with its owner: the organization, or the campaign. Each ends with the gift's instant,
 * which says whether a build under way has counted it (`builtSql`, decision 043).
 */
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

/**
 * `after` minus `before`, per key: a row's first `keyLength` columns and its last, the gift's
 * instant (a gift moved to another date is two rows, one on each side of a build's progress); the
 * values between are summed, and keys left as they were dropped.
 */
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

/**
 * The analytics rollups' deltas of one change: the organization's (decision 032), applied, like
 * donation_daily_totals, only while they are built in `timeZone`; its campaigns' (decision 037),
 * only while each is built in `timeZone` (a change in another zone deletes that state); all only if
 * the change's write won (`guard`). A donor's period row goes when its last gift there does.
 */
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
          // A campaign built, or being built, in another zone took no delta: read from its gifts until rebuilt.
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

/**
 * SQL: the rollups of owner `w` — the organization's per-day rollups (donation_daily_totals,
 * analytics_facet, donor_period), or a campaign's own — hold a row of a gift dated `at` (ms) in zone
 * `tz`: built there (the state row), or being rebuilt there with the gift's local day built
 * (decision 043). A build's progress is the start of a local day, so a day's rows and its month's
 * take the same answer for every gift of that day; a month under way holds its built days' gifts.
 */
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
  // Donor rows: the gift's donor before is the row as read; after, it is the stored row's own
  // donor_id, never the request's idea of it (a webhook's donor found by e-mail may be another
  // request's, inserted first). Unchanged contributions (an edit of the note) write nothing.
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
        // By the donor index, named: left to itself the planner reads the organization's every row
        // (1.8 M at 1 M gifts, ≈ 100 ms on each gift's write) to test gift_count.
        `DELETE FROM ${scope.donors} INDEXED BY ${scope.donors}_donor_idx
          WHERE donor_id IN (SELECT value FROM json_each(?2) UNION SELECT d.donor_id FROM donation d WHERE d.id = ?3)
            AND ${scope.owner} IN (SELECT value FROM json_each(?1)) AND gift_count <= 0`,
      )
      .bind(JSON.stringify(owners), JSON.stringify([...new Set(b.donors.map((d) => d[4]))]), c.id),
  );
  return stmts;
}

/**
 * The stats rows of the campaigns a change touches, moved by the change's own difference (run after
 * the row is written or deleted; guarded by the change's audit row): raised, gifts and refunds by
 * the gift before (as read, which the change's token proves current) and after (the stored row);
 * the donor count by one where the gift's donor starts or stops counting in the campaign — no
 * other counted gift of that donor there, found by the donor's own gifts (donation_donor_idx). A
 * recount read every gift of the campaign inside the write: a general fund's hundreds of
 * thousands, on each of its gifts (decision 037).
 */
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

/**
 * What a change moves in donation_totals / donation_daily_totals: per key (the day `dayOf` gives,
 * or "" for the all-time table, × currency × status × mode × trash), `before` counted -1 and
 * `after` +1; keys the change leaves as they were are dropped.
 */
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

/**
 * donation_daily_totals: donation_totals by local day. Applied only while donation_daily_state
 * says the table was built in `timeZone`; a write that computed its day in another zone (the
 * organization changed zones while this request ran) deletes the state instead, so the list
 * totals from the donations until the next rebuild (decision 013).
 */
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

/**
 * campaign_stats set from a recount of gifts `d`: `campaign` is each row's campaign, `from` the
 * FROM … WHERE naming the gifts (with its GROUP BY where it spans campaigns); ?2 is the
 * organization, ?3 now.
 */
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

/**
 * The stats rows of every campaign `donorId` gave to, recounted: a donor merge moves gifts between
 * donors, which changes the campaigns' distinct-donor counts.
 */
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

/**
 * Builds the organization's per-day rollups (org_daily, donation_daily_totals, analytics_facet,
 * donor_period) in `timeZone`, in stretches of local days (decisions 038, 043;
 * worker/donations/rollup-builds.ts): resumes a build under way or starts one, stops at `deadline`
 * or after `maxBatches` stretches, the rest left to the next call (the 15-minute cron). Returns
 * whether the rollups are built. Every change made meanwhile keeps the days already built
 * (rollupStatements, the gift sets, the cron's abandon; `builtSql`). org_daily, which the
 * dashboard's series reads built or not, is in the old zone beyond the built days meanwhile: the
 * totals are right, a gift near midnight may sit on the neighbouring day.
 */
export const buildDailyRollups = (
  db: Database,
  organizationId: string,
  timeZone: string,
  opts: BuildOptions = {},
) =>
  buildInStretches(
    db,
    {
      organizationId,
      owner: { column: "organization_id", id: organizationId },
      statements: (last) => dailyRebuildSql({ last }),
    },
    timeZone,
    opts,
  );

/**
 * Every per-day rollup of the organization counted again from its donations, to the end (tests
 * compare it with what the deltas kept). Returns whether it is built.
 */
export const rebuildDailyRollups = (
  db: Database,
  organizationId: string,
  timeZone: string,
  batchGifts?: number,
) => buildDailyRollups(db, organizationId, timeZone, { restart: true, batchGifts });

/**
 * A set of gifts written at once (an import's batch, its undo; docs/decisions/028-csv-import.md):
 * the ids (JSON array) and the change token their write gave them. Only rows carrying the token
 * count, so the deltas are those of exactly the rows that write touched.
 */
export interface GiftSet {
  organizationId: string;
  idsJson: string;
  token: string;
  /** [from, until) holding every gift's instant: the zone's offsets are computed over it. */
  from: number;
  until: number;
}

/**
 * The rollup deltas of a gift set (`sign` 1 after inserting it, -1 before deleting it), computed
 * in SQL from the rows themselves: org_daily per campaign and '*', donation_totals and
 * donation_daily_totals (while built in `timeZone`, as dailyTotalsStatements keeps it), each row
 * on its local day by the zone's offset spans (localDaySql, as the daily rebuild does). Every
 * statement carries `guard`.
 */
export function giftSetRollupStatements(
  db: Database,
  set: GiftSet,
  timeZone: string,
  sign: 1 | -1,
  guard: Guard,
): D1PreparedStatement[] {
  const spans = JSON.stringify(dailySpans(set.from, set.until, timeZone));
  const day = localDaySql("d.donated_at");
  // ?1 org, ?2 ids, ?3 token, ?4 sign, then the statement's own and the guard's.
  // CROSS JOIN fixes the loop order (SQLite keeps it): the ids outside, each gift by its primary
  // key. Left to itself the planner may walk the organization's whole date index instead.
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
    // The set's campaigns that have rollups of their own (decision 037). The organization-wide
    // test is an uncorrelated subquery, computed once: an organization without a built campaign
    // (the import's usual case) probes no campaign per gift, though the set's own rows are read.
    ...campaignRollupSql({
      spans: spansTable(5),
      from: `${rows} CROSS JOIN s ON d.donated_at >= s.b AND d.donated_at < s.e`,
      where: `(EXISTS (SELECT 1 FROM campaign_rollup_state WHERE organization_id = ?1 AND time_zone = ?6)
               OR EXISTS (SELECT 1 FROM campaign_rollup_build WHERE organization_id = ?1 AND time_zone = ?6))
              AND ${builtSql("campaign_id", "d.campaign_id", "?6", "d.donated_at")}
              AND ${guard.sql(7)}`,
      sign: "?4",
    }).map((sql) => bind(sql, spans, timeZone)),
    // A donor's period rows go with their last gift (an undo runs this before deleting the gifts:
    // their deltas have made the rows zero already). Adding gifts empties none.
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
    // A campaign built, or being built, in another zone than the set's days: read from its gifts
    // until rebuilt.
    ...zoneRows("campaign_id").map((table) =>
      bind(
        `DELETE FROM ${table}
          WHERE EXISTS (SELECT 1 FROM ${table} WHERE organization_id = ?1 AND time_zone != ?5)
            AND campaign_id IN (SELECT d.campaign_id FROM ${rows}) AND time_zone != ?5 AND ${guard.sql(6)}`,
        timeZone,
      ),
    ),
    // Days counted in another zone than the table's: the list totals from the donations until the
    // next rebuild (decision 013), as a single change does.
    ...dropOtherZones(db, set.organizationId, timeZone, guard),
  ];
}

/**
 * The campaign_stats deltas of a gift set (`sign` as for the rollups): raised, counts and refunds
 * from the set's rows, and the donors the set adds to (or takes from) each campaign — those with
 * no other counted gift in it — so a batch reads its own rows and its donors' gifts, never a whole
 * campaign (a recount would read every gift of every campaign the batch names).
 */
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
