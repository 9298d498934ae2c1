/**
 * Campaign analytics on the counted-donations definition (DESIGN §4), in the campaign's currency, over
 * a period in the organization's days and the one just before it. A refund counts on its gift's day:
 * the donation row keeps no refund date.
 */

import { bucketFor, bucketSeries, DISTINCT_ERROR_BOUND, MEDIAN_ERROR_BOUND } from "@core/analytics";
import { goalProgress } from "@core/campaign";
import { publicDonorLabel } from "@core/labels";
import { addDays, localDay, startOfLocalDay } from "@core/time";
import { type PeriodInput, resolvePeriod } from "../../dashboard/service";
import { type Database, orgDb } from "../../db/databases";
import type { OrgCtx } from "../../trpc/init";
import type { CampaignRow } from "../present";
import { loadCampaign } from "../service";
import { analyticsRows } from "./queries";

/** What campaign analytics may ask for besides its period: exact figures (no "≈"). */
type CampaignAnalyticsInput = PeriodInput & { exact?: boolean };

/** Campaign `id`'s analytics (NOT_FOUND for another tenant's; BAD_REQUEST for a period past today). */
export async function analyticsOf(ctx: OrgCtx, id: string, input: CampaignAnalyticsInput) {
  return campaignAnalytics(orgDb(ctx), ctx.org, await loadCampaign(orgDb(ctx), ctx.org.id, id), input);
}

async function campaignAnalytics(
  db: Database,
  org: { id: string; timeZone: string },
  c: CampaignRow,
  input: CampaignAnalyticsInput,
  now = Date.now(),
) {
  const tz = org.timeZone;
  const today = localDay(now, tz);
  const period = resolvePeriod(input, today);
  const { from, to, prevFrom } = period;
  // All time reaches gifts before 1970 too (legacy rows keep their keys, decision 019).
  const fromMs = from ? startOfLocalDay(from, tz) : Number.MIN_SAFE_INTEGER;
  const prevMs = prevFrom ? startOfLocalDay(prevFrom, tz) : 0;
  const untilMs = startOfLocalDay(addDays(to, 1), tz);
  const campaign = { orgId: org.id, id: c.id, currency: c.currency };
  const days = { fromDay: from ?? "0000-01-01", toDay: to, fromMs, untilMs };
  // A large campaign's own rollups where built (decision 037), else its gifts: one batch.
  const rows = await analyticsRows(
    db,
    campaign,
    {
      ...days,
      prevMs,
      prevUntilMs: prevFrom ? fromMs : 0,
      prevDays: prevFrom && from ? [prevFrom, addDays(from, -1)] : null,
    },
    !!input.exact,
  );
  const a = rows.cur;
  const p = prevFrom ? rows.prev : null;
  const r = rows.refunds;
  const pr = prevFrom ? rows.prevRefunds : null;
  const average = a.n ? Math.round(a.raised / a.n) : 0;
  const change = (nowValue: number, before: number | undefined) =>
    before === undefined || before === 0 ? null : (nowValue - before) / before;

  // Zero-filled buckets from the start of the period (all time: the first gift or the creation
  // day, at least 7 days back) to its last day, in the organization's time zone.
  const start =
    from ??
    [rows.series[0]?.day, localDay(c.created_at, tz), addDays(today, -6)]
      .filter((d): d is string => !!d)
      .sort()[0] ??
    today;
  const bucket = bucketFor(start, to);
  const filled = bucketSeries(rows.series, start, to, bucket).map(({ period, ...r }) => ({
    day: period,
    ...r,
  }));

  return {
    currency: c.currency,
    period: {
      days: period.custom ? null : input.days,
      from,
      to,
      previous: prevFrom ? { from: prevFrom, to: addDays(from ?? today, -1) } : null,
    },
    raisedMinor: a.raised,
    donations: a.n,
    uniqueDonors: a.donors,
    averageMinor: average,
    medianMinor: Math.round(a.median ?? 0),
    refunds: { amountMinor: r.amount, count: r.count },
    change: p
      ? {
          raised: change(a.raised, p.raised),
          donations: change(a.n, p.n),
          donors: change(a.donors, p.donors),
          average: change(average, p.n ? Math.round(p.raised / p.n) : 0),
          refunds: change(r.amount, pr?.amount),
        }
      : null,
    goal: goalProgress({
      goalType: c.goal_type,
      goalAmountMinor: c.goal_amount_minor,
      goalCount: c.goal_count,
      raisedMinor: c.raised_minor,
      donationCount: c.donation_count,
      donorCount: c.donor_count,
    }),
    goalType: c.goal_type,
    bucket,
    series: filled,
    items: rows.items.map((i) => ({ ...i, fullyFunded: i.needed !== null && i.funded >= i.needed })),
    topDonors: rows.top,
    recent: rows.recent.map((row) => ({
      ...row,
      name: publicDonorLabel(row.name, row.anonymous),
    })),
    /** Which figures are estimates ("≈" on screen): only from the rollups; the exact path none. */
    estimated: rows.estimated ?? {
      median: false,
      uniqueDonors: false,
      previousDonors: false,
      topDonors: false,
    },
    errorBounds: { median: MEDIAN_ERROR_BOUND, donors: DISTINCT_ERROR_BOUND },
  };
}
