/**
 * The dashboard (DESIGN §4 analytics): one currency at a time (amounts in different currencies
 * are never added), counted gifts only (COUNTED_SQL), the organization's local days, one revenue
 * bucket rule (core/analytics.ts). Answers are cached per data version (cache.ts, decision 011).
 */
import { bucketFor, bucketSeries } from "@core/analytics";
import { addDays, localDay, startOfLocalDay } from "@core/time";
import { presentDonation } from "../donations/present";
import type { DonationListRow } from "../donations/queries";
import type { AdminCtx, OrgCtx } from "../trpc/init";
import { cachedAnalytics } from "./cache";
import { platformStatements, retentionCounts, summaryStatements } from "./queries";
import { type RetentionWindows, retentionWindows } from "./retention";

type Ctx = Pick<OrgCtx, "env" | "org" | "waitUntil">;

/**
 * The summary of the last `days` local days including today (0 = all time) in `currency` (the
 * organization's default unless given), and its change against the `days` local days before it.
 */
export function dashboardSummary(ctx: Ctx, input: { days: number; currency?: string }) {
  const today = localDay(Date.now(), ctx.org.timeZone);
  const currency = input.currency ?? ctx.org.defaultCurrency;
  return cachedAnalytics(ctx, ctx.org, "summary", [today, input.days, currency], () => summary(ctx, input));
}

/** Retention and lapsed donors over the windows of retention.ts, as of today. */
export function dashboardRetention(ctx: Ctx) {
  const w = retentionWindows(ctx.org.timeZone);
  return cachedAnalytics(ctx, ctx.org, "retention", [w.today], () => retention(ctx, w));
}

async function retention(ctx: Pick<OrgCtx, "env" | "org">, w: RetentionWindows) {
  const ret = await retentionCounts(ctx.env.DB, ctx.org.id, w);
  const base = ret?.base ?? 0;
  const retained = ret?.retained ?? 0;
  return {
    base,
    retained,
    lapsed: base - retained,
    rate: base ? retained / base : null,
    /** The previous-12-months window, as the list filter of both segments. */
    priorFrom: w.priorFrom,
    priorTo: w.priorTo,
    recentFrom: w.recentFrom,
    to: w.today,
  };
}

async function summary(ctx: Pick<OrgCtx, "env" | "org">, input: { days: number; currency?: string }) {
  const db = ctx.env.DB;
  const org = ctx.org;
  const today = localDay(Date.now(), org.timeZone);
  const from = input.days > 0 ? addDays(today, -(input.days - 1)) : "0000-01-01";
  const prevFrom = input.days > 0 ? addDays(today, -(2 * input.days - 1)) : null;
  const currency = input.currency ?? org.defaultCurrency;
  const fromMs = input.days > 0 ? startOfLocalDay(from, org.timeZone) : 0;
  const prevMs = prevFrom ? startOfLocalDay(prevFrom, org.timeZone) : 0;
  const allTime = input.days === 0;
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
    summaryStatements(db, { orgId: org.id, currency, from, fromMs, prevFrom, prevMs, allTime }),
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
  const seriesFrom = input.days > 0 ? from : (days[0]?.day ?? today);
  const bucket = bucketFor(seriesFrom, today);
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
    days: input.days,
    /** The period's first local day (null for all time) and today, for the list links. */
    from: input.days > 0 ? from : null,
    to: today,
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
    series: bucketSeries(days, seriesFrom, today, bucket),
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
  };
}

/**
 * Platform admins: every organization at once, per currency (never summed across currencies).
 * Days are each organization's own local days (org_daily), the window the last `days` UTC days.
 */
export async function platformSummary(ctx: Pick<AdminCtx, "env">, input: { days: number }) {
  const db = ctx.env.DB;
  const today = localDay(Date.now(), "UTC");
  const from = input.days > 0 ? addDays(today, -(input.days - 1)) : "0000-01-01";
  const [totals, orgs] = await db.batch(platformStatements(db, from));
  return {
    days: input.days,
    totals: (totals?.results ?? []) as { currency: string; raised: number; count: number }[],
    organizations: (orgs?.results ?? []) as {
      id: string;
      name: string;
      currency: string;
      raised: number;
      count: number;
    }[],
  };
}
