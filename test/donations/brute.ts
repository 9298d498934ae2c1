/**
 * Brute-force recomputation of everything the donation writes maintain, straight from the donation
 * table, for the donation suites to compare against (DESIGN §4 "counted donations").
 */

import { dayKey, localDay } from "@core/time";
import { expect } from "vitest";
import { signWebhook } from "../../worker/http/webhook";
import { buildCampaignRollups } from "../../worker/ledger/campaign-rollups";
import { CAMPAIGN_SCOPE, ORG_SCOPE, type RollupScope } from "../../worker/ledger/rollup-sql";
import { campaignRecountSql, rebuildDailyRollups } from "../../worker/ledger/rollups";
import { makeAdmin } from "../auth/jar";
import { callerFor } from "../fixtures";
import { appFetch, testEnv } from "../helpers";

export const WEBHOOK_SECRET = "whsec-test-0123456789";

export interface RawDonation {
  id: string;
  organization_id: string;
  donor_id: string | null;
  campaign_id: string | null;
  campaign_item_id: string | null;
  item_quantity: number;
  amount_minor: number;
  refunded_minor: number;
  currency: string;
  status: string;
  mode: string;
  frequency: string;
  payment_method: string;
  trashed_at: number | null;
  donated_at: number;
  source: string;
  plan_id: string | null;
}

export const isCounted = (d: RawDonation) =>
  (d.status === "completed" || d.status === "partially_refunded") &&
  d.mode === "live" &&
  d.trashed_at === null;
export const net = (d: RawDonation) => d.amount_minor - d.refunded_minor;

/** The dashboard's median: the mean of the two middle values for an even count, rounded. */
export function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return 0;
  const m = Math.floor((s.length - 1) / 2);
  return Math.round(s.length % 2 ? (s[m] as number) : ((s[m] as number) + (s[m + 1] as number)) / 2);
}

/**
 * The all-time dashboard (summary with days = 0) recomputed from raw rows for one currency: it
 * reads other indexes and rollups than a period does (drizzle/0008), so it is checked on its own.
 */
export function bruteAllTime(rows: RawDonation[], currency: string) {
  const inCur = rows.filter((d) => d.currency === currency);
  const counted = inCur.filter(isCounted);
  const sum = (xs: RawDonation[]) => xs.reduce((t, d) => t + net(d), 0);
  const donorsOf = (xs: RawDonation[]) => new Set(xs.map((d) => d.donor_id).filter(Boolean)).size;
  const byMethod: Record<string, number> = {};
  for (const d of counted) byMethod[d.payment_method] = (byMethod[d.payment_method] ?? 0) + net(d);
  const byStatus: Record<string, number> = {};
  for (const d of inCur.filter((x) => x.mode === "live" && x.trashed_at === null))
    byStatus[d.status] = (byStatus[d.status] ?? 0) + 1;
  const split = (recurring: boolean) => {
    const xs = counted.filter((d) => (d.frequency !== "one_time") === recurring);
    return { count: xs.length, amountMinor: sum(xs), donors: donorsOf(xs) };
  };
  const perDonor = new Map<string, number>();
  for (const d of counted) if (d.donor_id) perDonor.set(d.donor_id, (perDonor.get(d.donor_id) ?? 0) + net(d));
  return {
    raisedMinor: sum(counted),
    donations: counted.length,
    uniqueDonors: donorsOf(counted),
    medianMinor: median(counted.map(net)),
    byMethod,
    byStatus,
    oneTime: split(false),
    recurring: split(true),
    /** Totals of the top five donors (ties make the ids ambiguous, the totals are not). */
    topTotals: [...perDonor.values()].sort((a, b) => b - a).slice(0, 5),
  };
}

/** The same fields of a summary, to compare with bruteAllTime. */
export function allTimeOf(s: {
  raisedMinor: number;
  donations: number;
  uniqueDonors: number;
  medianMinor: number;
  byMethod: { method: string; amount: number }[];
  byStatus: { status: string; count: number }[];
  oneTime: { count: number; amountMinor: number; donors: number };
  recurring: { count: number; amountMinor: number; donors: number };
  topDonors: { total: number }[];
}) {
  return {
    raisedMinor: s.raisedMinor,
    donations: s.donations,
    uniqueDonors: s.uniqueDonors,
    medianMinor: s.medianMinor,
    byMethod: Object.fromEntries(s.byMethod.map((m) => [m.method, m.amount])),
    byStatus: Object.fromEntries(s.byStatus.map((m) => [m.status, m.count])),
    oneTime: s.oneTime,
    recurring: s.recurring,
    topTotals: s.topDonors.map((t) => t.total),
  };
}

export async function donationsOf(org: string) {
  const { results } = await testEnv.DB.prepare("SELECT * FROM donation WHERE organization_id = ?")
    .bind(org)
    .all<RawDonation>();
  return results;
}

/**
 * org_daily as the brute force expects it: "campaign|day|currency" → [raised, count, raised through
 * plans, count through plans], zero rows dropped.
 */
export function bruteDaily(rows: RawDonation[], timeZone: string) {
  const out = new Map<string, [number, number, number, number]>();
  for (const d of rows.filter(isCounted)) {
    const day = localDay(d.donated_at, timeZone);
    for (const c of [d.campaign_id ?? "", "*"]) {
      const k = `${c}|${day}|${d.currency}`;
      const cur = out.get(k) ?? [0, 0, 0, 0];
      cur[0] += net(d);
      cur[1] += 1;
      if (d.plan_id) {
        cur[2] += net(d);
        cur[3] += 1;
      }
      out.set(k, cur);
    }
  }
  return new Map([...out].filter(([, v]) => v.some((x) => x !== 0)));
}

/** Rows tallied by key into [count, amount, refunded], as both totals tables keep them. */
function tally(rows: RawDonation[], keyOf: (d: RawDonation) => string) {
  const out: Record<string, [number, number, number]> = {};
  for (const d of rows) {
    const k = `${keyOf(d)}${d.currency}|${d.status}|${d.mode}|${d.trashed_at === null ? 0 : 1}`;
    const cur = out[k] ?? [0, 0, 0];
    cur[0] += 1;
    cur[1] += d.amount_minor;
    cur[2] += d.refunded_minor;
    out[k] = cur;
  }
  return out;
}

/** A totals table's non-zero rows, keyed like `tally`. */
async function storedTally(table: "donation_totals" | "donation_daily_totals", org: string) {
  const day = table === "donation_daily_totals";
  const { results } = await testEnv.DB.prepare(
    `SELECT ${day ? "day" : "'' AS day"}, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor FROM ${table} WHERE organization_id = ? AND (donation_count != 0 OR amount_minor != 0 OR refunded_minor != 0)`,
  )
    .bind(org)
    .all<{
      day: string;
      currency: string;
      status: string;
      mode: string;
      trashed: number;
      donation_count: number;
      amount_minor: number;
      refunded_minor: number;
    }>();
  return Object.fromEntries(
    results.map((r) => [
      `${day ? `${r.day}|` : ""}${r.currency}|${r.status}|${r.mode}|${r.trashed}`,
      [r.donation_count, r.amount_minor, r.refunded_minor],
    ]),
  );
}

/** donation_totals as the brute force expects it: "currency|status|mode|trashed" → [count, amount, refunded]. */
export const bruteTotals = (rows: RawDonation[]) => tally(rows, () => "");
export const storedTotals = (org: string) => storedTally("donation_totals", org);

/** donation_daily_totals as the brute force expects it: "day|currency|status|mode|trashed" → [count, amount, refunded]. */
export const bruteDailyTotals = (rows: RawDonation[], timeZone: string) =>
  tally(rows, (d) => `${dayKey(d.donated_at, timeZone)}|`);
export const storedDailyTotals = (org: string) => storedTally("donation_daily_totals", org);

export async function dailyStateOf(org: string) {
  return (
    await testEnv.DB.prepare("SELECT time_zone FROM donation_daily_state WHERE organization_id = ?")
      .bind(org)
      .first<{ time_zone: string }>()
  )?.time_zone;
}

export interface ListFilter {
  status?: ("completed" | "pending" | "refunded" | "partially_refunded" | "abandoned" | "failed")[];
  mode?: "live" | "test";
  currency?: string;
  trashed?: boolean;
  from?: string;
  to?: string;
}

/** The list's per-currency totals for `f`, recounted with localDay (not startOfLocalDay). */
export function bruteListTotals(rows: RawDonation[], f: ListFilter, timeZone: string) {
  const set = rows.filter((d) => {
    const day = localDay(d.donated_at, timeZone);
    return (
      (f.trashed ? d.trashed_at !== null : d.trashed_at === null) &&
      (!f.status || (f.status as string[]).includes(d.status)) &&
      (!f.mode || d.mode === f.mode) &&
      (!f.currency || d.currency === f.currency) &&
      (!f.from || day >= f.from) &&
      (!f.to || day <= f.to)
    );
  });
  return [...new Set(set.map((d) => d.currency))].sort().map((cur) => {
    const mine = set.filter((d) => d.currency === cur);
    const counted = mine.filter(isCounted);
    return [cur, mine.length, counted.length, counted.reduce((t, d) => t + net(d), 0)];
  });
}

export const totalsOf = (got: {
  totalsByCurrency: { currency: string; count: number; countedCount: number; countedMinor: number }[];
}) => got.totalsByCurrency.map((t) => [t.currency, t.count, t.countedCount, t.countedMinor]);

export async function storedDaily(org: string) {
  const { results } = await testEnv.DB.prepare(
    `SELECT campaign_id, day, currency, raised_minor, donation_count, plan_raised_minor, plan_donation_count FROM org_daily
      WHERE organization_id = ? AND (raised_minor != 0 OR donation_count != 0 OR plan_raised_minor != 0 OR plan_donation_count != 0)`,
  )
    .bind(org)
    .all<{
      campaign_id: string;
      day: string;
      currency: string;
      raised_minor: number;
      donation_count: number;
      plan_raised_minor: number;
      plan_donation_count: number;
    }>();
  return new Map(
    results.map(
      (r) =>
        [
          `${r.campaign_id}|${r.day}|${r.currency}`,
          [r.raised_minor, r.donation_count, r.plan_raised_minor, r.plan_donation_count],
        ] as const,
    ),
  );
}

export function bruteCampaign(rows: RawDonation[], campaignId: string) {
  const mine = rows.filter((d) => d.campaign_id === campaignId);
  const counted = mine.filter(isCounted);
  return {
    raised_minor: counted.reduce((t, d) => t + net(d), 0),
    donation_count: counted.length,
    donor_count: new Set(counted.map((d) => d.donor_id).filter((x) => x !== null)).size,
    refunded_minor: mine
      .filter((d) => d.mode === "live" && d.trashed_at === null)
      .reduce((t, d) => t + d.refunded_minor, 0),
  };
}

export function bruteDonor(rows: RawDonation[], donorId: string) {
  const counted = rows.filter((d) => d.donor_id === donorId && isCounted(d));
  return {
    lifetime_minor: counted.reduce((t, d) => t + net(d), 0),
    donation_count: counted.length,
    largest_gift_minor: counted.reduce((m, d) => Math.max(m, net(d)), 0),
    first_gift_at: counted.length ? Math.min(...counted.map((d) => d.donated_at)) : null,
    last_gift_at: counted.length ? Math.max(...counted.map((d) => d.donated_at)) : null,
  };
}

export function bruteItemFunded(rows: RawDonation[], itemId: string) {
  return rows
    .filter((d) => d.campaign_item_id === itemId && isCounted(d))
    .reduce((t, d) => t + d.item_quantity, 0);
}

/** Mulberry32: a tiny seeded PRNG, so a failing sequence replays exactly from its seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
    chance: (p: number) => next() < p,
  };
}

export async function deliver(body: unknown, opts: { t?: number; secret?: string } = {}) {
  const raw = JSON.stringify(body);
  return appFetch("/api/webhooks/donations", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-almoner-signature": await signWebhook(opts.secret ?? WEBHOOK_SECRET, raw, opts.t),
    },
    body: raw,
  });
}

export function webhookEvent(
  org: string,
  tx: string,
  type = "donation.succeeded",
  data: Record<string, unknown> = {},
) {
  return {
    id: `evt_${tx}_${type}`,
    type,
    data: {
      organization: org,
      gatewayTransactionId: tx,
      amount: "42.50",
      currency: "usd",
      donatedAt: new Date().toISOString(),
      donor: { email: "payer@example.test", firstName: "Pat" },
      ...data,
    },
  };
}

/** A platform admin (no membership) acting on `org`, as chosen with organization.setActive. */
export async function platformAdmin(org: string) {
  const a = await makeAdmin();
  await testEnv.DB.prepare("UPDATE user SET active_organization_id = ? WHERE id = ?")
    .bind(org, a.user.id)
    .run();
  return { ...a, caller: await callerFor(a.jar) };
}

/**
 * The analytics rollups (decision 032) as stored: analytics_facet and donor_period rows that hold
 * anything, in key order. Kept by each change's deltas, they must equal what a rebuild computes.
 */
export async function storedAnalytics(org: string) {
  return storedRollups(ORG_SCOPE, org);
}

/** One scope's rollups (decisions 032, 037): the organization's, or a campaign's, order-free. */
async function storedRollups(scope: RollupScope, owner: string) {
  const facets = await testEnv.DB.prepare(
    `SELECT currency, facet, grain, period, key, gift_count, amount_minor FROM ${scope.facets}
      WHERE ${scope.owner} = ? AND (gift_count != 0 OR amount_minor != 0) ORDER BY 1, 2, 3, 4, 5`,
  )
    .bind(owner)
    .all();
  const donors = await testEnv.DB.prepare(
    `SELECT currency, grain, period, donor_id, sketch, gift_count, amount_minor, one_time_count FROM ${scope.donors}
      WHERE ${scope.owner} = ? ORDER BY 1, 2, 3, 4`,
  )
    .bind(owner)
    .all();
  return { facets: facets.results, donors: donors.results };
}

/** The rollups kept by deltas equal a rebuild from the donations (and the rebuild leaves them built). */
export async function expectAnalyticsRebuildable(org: string, timeZone: string, ctx: string) {
  const kept = await storedAnalytics(org);
  expect(await rebuildDailyRollups(testEnv.DB, org, timeZone), ctx).toBe(true);
  expect(kept, ctx).toEqual(await storedAnalytics(org));
}

/** A campaign's rollups kept by deltas equal a build from its gifts (and it stays built). */
export async function expectCampaignRollupsRebuildable(
  org: string,
  campaignId: string,
  timeZone: string,
  ctx: string,
) {
  const kept = await storedRollups(CAMPAIGN_SCOPE, campaignId);
  expect(await buildCampaignRollups(testEnv.DB, org, campaignId, timeZone), ctx).toBe(true);
  expect(kept, ctx).toEqual(await storedRollups(CAMPAIGN_SCOPE, campaignId));
}

/**
 * The fields of a summary that the rollups answer exactly, in an order-free form (ties may list in
 * another order): the fast answer must equal the exact one in all of them.
 */
export function exactFieldsOf(s: {
  raisedMinor: number;
  donations: number;
  averageMinor: number;
  uniqueDonors: number;
  change: unknown;
  series: unknown;
  oneTime: unknown;
  recurring: unknown;
  refunds: unknown;
  byStatus: { status: string }[];
  byMethod: { method: string }[];
  topCampaigns: { id: string }[];
  recent: { id: string }[];
  currencies: string[];
}) {
  return {
    raisedMinor: s.raisedMinor,
    donations: s.donations,
    averageMinor: s.averageMinor,
    uniqueDonors: s.uniqueDonors,
    change: s.change,
    series: s.series,
    oneTime: s.oneTime,
    recurring: s.recurring,
    refunds: s.refunds,
    byStatus: [...s.byStatus].sort((a, b) => a.status.localeCompare(b.status)),
    byMethod: [...s.byMethod].sort((a, b) => a.method.localeCompare(b.method)),
    topCampaigns: [...s.topCampaigns].sort((a, b) => a.id.localeCompare(b.id)),
    recent: s.recent.map((r) => r.id),
    currencies: s.currencies,
  };
}

/**
 * Every rollup of the organization counted again from its donations: campaign stats, donation
 * totals and the per-day rollups (no request does this: each change keeps them by its own deltas),
 * for tests that write gifts behind the API's back.
 */
export async function rebuildRollups(db: D1Database, organizationId: string, timeZone: string) {
  const { results: campaigns } = await db
    .prepare("SELECT id FROM campaign WHERE organization_id = ?")
    .bind(organizationId)
    .all<{ id: string }>();
  // One campaign at a time: an aggregate yields its row even for a campaign without gifts.
  const recount = campaignRecountSql("?1", "FROM donation d WHERE d.campaign_id = ?1");
  const stats = campaigns.map((c) => db.prepare(recount).bind(c.id, organizationId, Date.now()));
  for (let i = 0; i < stats.length; i += 500) await db.batch(stats.slice(i, i + 500));
  await db.batch([
    db.prepare("DELETE FROM donation_totals WHERE organization_id = ?").bind(organizationId),
    db
      .prepare(
        `INSERT INTO donation_totals (organization_id, currency, status, mode, trashed, donation_count, amount_minor, refunded_minor)
         SELECT organization_id, currency, status, mode, trashed_at IS NOT NULL, COUNT(*), SUM(amount_minor), SUM(refunded_minor)
           FROM donation WHERE organization_id = ? GROUP BY 1, 2, 3, 4, 5`,
      )
      .bind(organizationId),
  ]);
  return rebuildDailyRollups(db, organizationId, timeZone);
}
