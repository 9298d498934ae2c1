// The dashboard (DESIGN §4): one currency at a time (amounts in different currencies are never added),
// counted gifts only, the organization's local days. Answers are cached per data version (decision 011).
import {
  bucketFor,
  bucketSeries,
  DISTINCT_ERROR_BOUND,
  estimateDistinct,
  histogramMedian,
  MEDIAN_ERROR_BOUND,
} from "@core/analytics";
import { periodProblem, previousPeriod } from "@core/period";
import { addDays, DATE_RANGE_MS, DAY_KEY_AFTER, localDay, startOfLocalDay } from "@core/time";
import { databaseNamed, databaseNames, orgDb } from "../db/databases";
import { presentDonation } from "../donations/present";
import type { DonationListRow } from "../donations/queries";
import { fail } from "../lib/fail";
import type { AdminCtx, OrgCtx, OrgReader } from "../trpc/init";
import { cachedAnalytics } from "./cache";
import { PLATFORM_TOP, platformStatements, retentionCounts, summaryStatements } from "./queries";
import { type RetentionWindows, retentionWindows } from "./retention";
import {
  donorSample,
  facetTotals,
  partsOf,
  retentionSample,
  rollupsBuilt,
  type SampleRow,
  statusTotals,
  sumPartsOf,
  TOP_DONORS,
  topCampaigns,
  topCampaignsAllTime,
  topDonors,
} from "./rollup-queries";

type Ctx = Pick<OrgCtx, "env" | "org" | "waitUntil">;

export interface PeriodInput {
  days: number;
  from?: string;
  to?: string;
}

interface SummaryInput extends PeriodInput {
  currency?: string;
  exact?: boolean;
}

/** An instant after every gift: the end of "the last N days", which has no last instant. */
const NO_END_MS = DATE_RANGE_MS + 1;

/** A custom period ending after `today` is refused (core/period.ts), never a 500. */
export function resolvePeriod(input: PeriodInput, today: string) {
  if (input.from !== undefined && input.to !== undefined) {
    const problem = periodProblem(input, today);
    if (problem) fail("BAD_REQUEST", problem.message, { field: problem.field });
    const prev = previousPeriod(input.from, input.to);
    return { from: input.from, to: input.to, prevFrom: prev.from, custom: true, allTime: false } as const;
  }
  if (input.days === 0)
    return { from: null, to: today, prevFrom: null, custom: false, allTime: true } as const;
  return {
    from: addDays(today, -(input.days - 1)),
    to: today,
    prevFrom: addDays(today, -(2 * input.days - 1)),
    custom: false,
    allTime: false,
  } as const;
}

/** The cache key names the period itself: a custom period never shares an entry with a preset. */
export function dashboardSummary(ctx: Ctx, input: SummaryInput) {
  const today = localDay(Date.now(), ctx.org.timeZone);
  const currency = input.currency ?? ctx.org.defaultCurrency;
  const period = resolvePeriod(input, today);
  const key = period.custom ? `${period.from}..${period.to}` : input.days;
  const exact = input.exact ? "exact" : "fast";
  return cachedAnalytics(ctx, ctx.org, "summary", [today, key, currency, exact], async () => {
    const fast = input.exact ? null : await summaryFromRollups(ctx, input, today, period);
    return fast ?? summary(ctx, input, today, period);
  });
}

export function dashboardRetention(ctx: Ctx, input: { exact?: boolean } = {}) {
  const w = retentionWindows(ctx.org.timeZone);
  return cachedAnalytics(ctx, ctx.org, "retention", [w.today, input.exact ? "exact" : "fast"], () =>
    retention(ctx, w, !!input.exact),
  );
}

async function retention(ctx: OrgReader, w: RetentionWindows, exact: boolean) {
  const db = orgDb(ctx);
  let counts: { base: number; retained: number; estimated: boolean } | null = null;
  if (!exact) {
    // The previous 12 months' donors as a sample, each checked for a gift in the last 12 (decision 032).
    const [built, sample] = await db.batch([
      rollupsBuilt(db, ctx.org.id, ctx.org.timeZone),
      retentionSample(db, ctx.org.id, partsOf(w.priorFrom, w.priorTo), w.recentFromMs),
    ]);
    if ((built?.results[0] as { built: number } | undefined)?.built) {
      const s = sample?.results[0] as { n: number; kth: number | null; retained: number | null };
      const base = estimateDistinct(s.n, s.kth);
      const share = s.n ? (s.retained ?? 0) / s.n : 0;
      counts = {
        base: base.value,
        retained: base.exact ? (s.retained ?? 0) : Math.round(base.value * share),
        estimated: !base.exact,
      };
    }
  }
  if (!counts) {
    const ret = await retentionCounts(db, ctx.org.id, w);
    counts = { base: ret?.base ?? 0, retained: ret?.retained ?? 0, estimated: false };
  }
  const { base, retained } = counts;
  return {
    base,
    retained,
    lapsed: base - retained,
    rate: base ? retained / base : null,
    /** Counts from a sample of SKETCH_K donors (≈, within `errorBound` for 95% of answers). */
    estimated: counts.estimated,
    errorBound: DISTINCT_ERROR_BOUND,
    priorFrom: w.priorFrom,
    priorTo: w.priorTo,
    recentFrom: w.recentFrom,
    to: w.today,
  };
}

/** A custom period ends where its last day does; the last N days have no end (DAY_KEY_AFTER, NO_END_MS). */
function bounds(org: OrgCtx["org"], input: { currency?: string }, period: ReturnType<typeof resolvePeriod>) {
  const from = period.from ?? "0000-01-01";
  return {
    from,
    currency: input.currency ?? org.defaultCurrency,
    fromMs: period.from ? startOfLocalDay(from, org.timeZone) : 0,
    to: period.custom ? period.to : DAY_KEY_AFTER,
    untilMs: period.custom ? startOfLocalDay(addDays(period.to, 1), org.timeZone) : NO_END_MS,
  };
}

async function summary(
  ctx: OrgReader,
  input: { days: number; currency?: string },
  today: string,
  period: ReturnType<typeof resolvePeriod>,
) {
  const db = orgDb(ctx);
  const org = ctx.org;
  const { prevFrom, allTime, custom } = period;
  const { from, currency, fromMs, to, untilMs } = bounds(org, input, period);
  const prevMs = prevFrom ? startOfLocalDay(prevFrom, org.timeZone) : 0;
  const [
    series,
    prev,
    amounts,
    prevDonors,
    byStatus,
    byMethod,
    topCampaigns,
    topDonors,
    recent,
    byFrequency,
    refunds,
    currencies,
  ] = await db.batch(
    summaryStatements(db, { orgId: org.id, currency, from, fromMs, to, untilMs, prevFrom, prevMs, allTime }),
  );
  const agg = (amounts?.results[0] ?? { n: 0, raised: 0, donors: 0, median: 0 }) as {
    n: number;
    raised: number;
    donors: number;
    median: number | null;
  };
  // All time: donors and the one-time/recurring split come from the one donor-ordered pass.
  const pass = allTime
    ? ((byFrequency?.results[0] ?? null) as {
        donors: number;
        otCount: number;
        otAmount: number;
        otDonors: number;
        rcCount: number;
        rcAmount: number;
        rcDonors: number;
      } | null)
    : null;
  const raised = agg.raised;
  const donors = pass ? pass.donors : agg.donors;
  const p = prev?.results[0] as { raised: number; count: number } | undefined;
  const change = (now: number, before: number | undefined) =>
    !prevFrom || !before ? null : (now - before) / before;
  const days = (series?.results ?? []) as { day: string; raised: number; count: number }[];
  const seriesFrom = period.from ?? days[0]?.day ?? today;
  const bucket = bucketFor(seriesFrom, period.to);
  const split = (kind: string) =>
    pass
      ? kind === "one_time"
        ? { count: pass.otCount, amount: pass.otAmount, donors: pass.otDonors }
        : { count: pass.rcCount, amount: pass.rcAmount, donors: pass.rcDonors }
      : ((
          (byFrequency?.results ?? []) as { kind: string; count: number; amount: number; donors: number }[]
        ).find((r) => r.kind === kind) ?? { count: 0, amount: 0, donors: 0 });
  const oneTime = split("one_time");
  const recurring = split("recurring");
  const r = refunds?.results[0] as { count: number; amount: number } | undefined;
  return {
    currency,
    currencies: [
      ...new Set([
        currency,
        ...((currencies?.results ?? []) as { currency: string }[]).map((c) => c.currency),
      ]),
    ].sort(),
    days: custom ? null : input.days,
    /** For the list links; null for all time. */
    from: period.from,
    to: period.to,
    previous: prevFrom ? { from: prevFrom, to: addDays(from, -1) } : null,
    raisedMinor: raised,
    donations: agg.n,
    uniqueDonors: donors,
    averageMinor: agg.n ? Math.round(raised / agg.n) : 0,
    medianMinor: Math.round(agg.median ?? 0),
    change: {
      raised: change(raised, p?.raised),
      donations: change(agg.n, p?.count),
      donors: change(donors, (prevDonors?.results[0] as { n: number } | undefined)?.n),
    },
    bucket,
    series: bucketSeries(days, seriesFrom, period.to, bucket),
    oneTime: { count: oneTime.count, amountMinor: oneTime.amount ?? 0, donors: oneTime.donors },
    recurring: { count: recurring.count, amountMinor: recurring.amount ?? 0, donors: recurring.donors },
    refunds: { count: r?.count ?? 0, amountMinor: r?.amount ?? 0 },
    byStatus: (byStatus?.results ?? []) as { status: string; count: number; amount: number }[],
    byMethod: (byMethod?.results ?? []) as { method: string; count: number; amount: number }[],
    topCampaigns: (topCampaigns?.results ?? []) as {
      id: string;
      title: string;
      currency: string;
      raised: number;
      count: number;
    }[],
    topDonors: (topDonors?.results ?? []) as {
      id: string;
      name: string;
      company: string | null;
      total: number;
      gifts: number;
    }[],
    recent: ((recent?.results ?? []) as DonationListRow[]).map(presentDonation),
    estimated: NOTHING_ESTIMATED,
    errorBounds: ERROR_BOUNDS,
  };
}

/** The exact path estimates none ("≈" on screen). */
const NOTHING_ESTIMATED = {
  median: false,
  uniqueDonors: false,
  previousDonors: false,
  donorsByKind: false,
  topDonors: false,
};
/** The median's worst case, distinct donors' 95% (core/analytics.ts). */
const ERROR_BOUNDS = { median: MEDIAN_ERROR_BOUND, donors: DISTINCT_ERROR_BOUND };

// `summary` from the rollups (decision 032), but for the figures it marks estimated; null while the
// rollups are not built in the organization's zone (until the cron rebuilds them).
async function summaryFromRollups(
  ctx: OrgReader,
  input: { days: number; currency?: string },
  today: string,
  period: ReturnType<typeof resolvePeriod>,
) {
  const db = orgDb(ctx);
  const org = ctx.org;
  const { prevFrom, allTime, custom } = period;
  const { from, currency, fromMs, to, untilMs } = bounds(org, input, period);
  // Some of summaryStatements' own are rollup or index reads already.
  const raw = summaryStatements(db, {
    orgId: org.id,
    currency,
    from,
    fromMs,
    to,
    untilMs,
    prevFrom,
    prevMs: 0,
    allTime,
  });
  const parts = partsOf(from, to);
  const sums = sumPartsOf(from, to);
  const prevParts = prevFrom ? partsOf(prevFrom, addDays(from, -1)) : null;
  const results = await db.batch([
    rollupsBuilt(db, org.id, org.timeZone),
    raw[0] as D1PreparedStatement,
    raw[1] as D1PreparedStatement,
    db
      .prepare(
        "SELECT COALESCE(SUM(raised_minor), 0) AS raised, COALESCE(SUM(donation_count), 0) AS n FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND currency = ? AND day >= ? AND day <= ?",
      )
      .bind(org.id, currency, allTime ? "0000" : from, to),
    facetTotals(db, org.id, currency, sums),
    donorSample(db, org.id, currency, parts),
    prevParts ? donorSample(db, org.id, currency, prevParts) : db.prepare("SELECT 0 AS n, NULL AS kth"),
    allTime ? (raw[4] as D1PreparedStatement) : statusTotals(db, org.id, currency, from, to),
    allTime ? topCampaignsAllTime(db, org.id, currency) : topCampaigns(db, org.id, currency, sums),
    // All time reaches gifts before 1970 too (legacy rows keep their keys, decision 019).
    topDonors(db, org.id, currency, parts, allTime ? Number.MIN_SAFE_INTEGER : fromMs, untilMs),
    raw[8] as D1PreparedStatement,
    raw[11] as D1PreparedStatement,
  ]);
  const rows = <T>(i: number) => (results[i]?.results ?? []) as T[];
  if (!rows<{ built: number }>(0)[0]?.built) return null;
  const days = rows<{ day: string; raised: number; count: number }>(1);
  const p = rows<{ raised: number; count: number }>(2)[0];
  const totals = rows<{ raised: number; n: number }>(3)[0] ?? { raised: 0, n: 0 };
  const facets = rows<{ facet: string; key: string; count: number; amount: number }>(4);
  const sample = rows<SampleRow>(5)[0] ?? { n: 0, ot: 0, rc: 0, kth: null };
  const prevSample = rows<SampleRow>(6)[0] ?? { n: 0, ot: 0, rc: 0, kth: null };
  const top = rows<{
    id: string;
    name: string;
    company: string | null;
    total: number;
    gifts: number;
    bound: number;
  }>(9);
  const of = (facet: string) => facets.filter((f) => f.facet === facet);
  const kind = (k: string) => of("kind").find((f) => f.key === k) ?? { count: 0, amount: 0 };
  const donors = estimateDistinct(sample.n, sample.kth);
  const prevDonors = prevFrom ? estimateDistinct(prevSample.n, prevSample.kth) : null;
  // Donors by kind: the sample's shares (exactly the counts while the sample is the whole set).
  const byKind = (k: number | null) =>
    donors.exact ? (k ?? 0) : Math.round((donors.value * (k ?? 0)) / Math.max(1, sample.n));
  const refund = of("refund")[0];
  const change = (now: number, before: number | undefined) =>
    !prevFrom || !before ? null : (now - before) / before;
  const seriesFrom = period.from ?? days[0]?.day ?? today;
  const bucket = bucketFor(seriesFrom, period.to);
  const median = histogramMedian(
    of("net").map((f) => ({ bucket: Number(f.key), count: f.count, amount: f.amount })),
  );
  const last = top.at(-1);
  return {
    currency,
    currencies: [...new Set([currency, ...rows<{ currency: string }>(11).map((c) => c.currency)])].sort(),
    days: custom ? null : input.days,
    from: period.from,
    to: period.to,
    previous: prevFrom ? { from: prevFrom, to: addDays(from, -1) } : null,
    raisedMinor: totals.raised,
    donations: totals.n,
    uniqueDonors: donors.value,
    averageMinor: totals.n ? Math.round(totals.raised / totals.n) : 0,
    medianMinor: Math.round(median ?? 0),
    change: {
      raised: change(totals.raised, p?.raised),
      donations: change(totals.n, p?.count),
      donors: change(donors.value, prevDonors?.value),
    },
    bucket,
    series: bucketSeries(days, seriesFrom, period.to, bucket),
    oneTime: {
      count: kind("one_time").count,
      amountMinor: kind("one_time").amount,
      donors: byKind(sample.ot),
    },
    recurring: {
      count: kind("recurring").count,
      amountMinor: kind("recurring").amount,
      donors: byKind(sample.rc),
    },
    refunds: { count: refund?.count ?? 0, amountMinor: refund?.amount ?? 0 },
    byStatus: rows<{ status: string; count: number; amount: number }>(7),
    byMethod: of("method")
      .map((f) => ({ method: f.key, count: f.count, amount: f.amount }))
      .sort((a, b) => b.amount - a.amount),
    topCampaigns: rows<{ id: string; title: string; currency: string; raised: number; count: number }>(8),
    topDonors: top.map(({ bound: _, ...d }) => d),
    recent: rows<DonationListRow>(10).map(presentDonation),
    estimated: {
      median: totals.n > 0,
      uniqueDonors: !donors.exact,
      previousDonors: !!prevDonors && !prevDonors.exact,
      donorsByKind: !donors.exact,
      // Exact when the last listed donor gave at least what any donor outside the candidates can have.
      topDonors: top.length === TOP_DONORS && !!last && last.total < last.bound,
    },
    errorBounds: ERROR_BOUNDS,
  };
}

/** Per currency; days are each organization's own local days, the window the last `days` UTC days. */
export async function platformSummary(ctx: Pick<AdminCtx, "env">, input: PeriodInput) {
  const period = resolvePeriod(input, localDay(Date.now(), "UTC"));
  // Every database holding organizations answers for its own; the answers are merged (decision 027).
  const answers = await Promise.all(
    databaseNames(ctx.env).map((name) => {
      const db = databaseNamed(ctx.env, name);
      return db.batch(
        platformStatements(db, period.from ?? "0000-01-01", period.custom ? period.to : DAY_KEY_AFTER),
      );
    }),
  );
  type Total = { currency: string; raised: number; count: number };
  type OrgTotal = Total & { id: string; name: string };
  const totals = new Map<string, Total>();
  for (const [t] of answers) {
    for (const row of (t?.results ?? []) as Total[]) {
      const sum = totals.get(row.currency) ?? { currency: row.currency, raised: 0, count: 0 };
      sum.raised += row.raised;
      sum.count += row.count;
      totals.set(row.currency, sum);
    }
  }
  return {
    days: period.custom ? null : input.days,
    from: period.from,
    to: period.to,
    totals: [...totals.values()].sort((a, b) => b.raised - a.raised),
    organizations: answers
      .flatMap(([, o]) => (o?.results ?? []) as OrgTotal[])
      .sort((a, b) => b.raised - a.raised)
      .slice(0, PLATFORM_TOP),
  };
}
