/**
 * Every figure the donation writes maintain, compared with a brute-force recount of the donation
 * table (test/donations/brute.ts): org_daily (per campaign and '*'), donation_totals,
 * donation_daily_totals, the analytics rollups (the organization's and its built campaigns'),
 * campaign_stats, donor stats, item funding, and donations.list's totals
 * against SELECT count(*). Shared by the concurrency suites (decision 020).
 */

import { localDay } from "@core/time";
import { expect } from "vitest";
import { testEnv } from "../helpers";
import {
  bruteCampaign,
  bruteDaily,
  bruteDailyTotals,
  bruteDonor,
  bruteItemFunded,
  bruteListTotals,
  bruteTotals,
  dailyStateOf,
  donationsOf,
  expectAnalyticsRebuildable,
  expectCampaignRollupsRebuildable,
  type ListFilter,
  storedDaily,
  storedDailyTotals,
  storedTotals,
  totalsOf,
} from "./brute";

interface Lister {
  donations: {
    list(f: ListFilter & { campaignId?: string }): Promise<{
      total: number;
      totalsByCurrency: { currency: string; count: number; countedCount: number; countedMinor: number }[];
    }>;
  };
}

export async function expectRecount(
  org: string,
  timeZone: string,
  caller: Lister,
  label: string,
  extraFilters: ListFilter[] = [],
) {
  const rows = await donationsOf(org);
  expect(Object.fromEntries(await storedDaily(org)), `${label}: org_daily`).toEqual(
    Object.fromEntries(bruteDaily(rows, timeZone)),
  );
  expect(await storedTotals(org), `${label}: donation_totals`).toEqual(bruteTotals(rows));
  expect(await storedDailyTotals(org), `${label}: donation_daily_totals`).toEqual(
    bruteDailyTotals(rows, timeZone),
  );
  expect(await dailyStateOf(org), `${label}: daily state`).toBe(timeZone);
  // The dashboard's rollups (decision 032) equal a rebuild from the gifts.
  await expectAnalyticsRebuildable(org, timeZone, `${label}: analytics rollups`);
  // So do the campaigns' own (decision 037), where built in the organization's zone.
  const { results: built } = await testEnv.DB.prepare(
    "SELECT campaign_id AS id FROM campaign_rollup_state WHERE organization_id = ? AND time_zone = ?",
  )
    .bind(org, timeZone)
    .all<{ id: string }>();
  for (const c of built)
    await expectCampaignRollupsRebuildable(org, c.id, timeZone, `${label}: campaign ${c.id} rollups`);
  const { results: campaigns } = await testEnv.DB.prepare(
    "SELECT c.id, s.raised_minor, s.donation_count, s.donor_count, s.refunded_minor FROM campaign c LEFT JOIN campaign_stats s ON s.campaign_id = c.id WHERE c.organization_id = ?",
  )
    .bind(org)
    .all<{ id: string; raised_minor: number | null }>();
  for (const { id, ...stats } of campaigns) {
    const want = bruteCampaign(rows, id);
    expect(stats.raised_minor === null ? bruteCampaign([], id) : stats, `${label}: campaign ${id}`).toEqual(
      want,
    );
  }
  const { results: donors } = await testEnv.DB.prepare(
    "SELECT id, lifetime_minor, donation_count, largest_gift_minor, first_gift_at, last_gift_at FROM donor WHERE organization_id = ?",
  )
    .bind(org)
    .all<{ id: string }>();
  for (const { id, ...stored } of donors)
    expect(stored, `${label}: donor ${id}`).toEqual(bruteDonor(rows, id));
  const { results: items } = await testEnv.DB.prepare(
    `SELECT i.id, COALESCE((SELECT SUM(d.item_quantity) FROM donation d WHERE d.campaign_item_id = i.id
       AND d.status IN ('completed','partially_refunded') AND d.mode = 'live' AND d.trashed_at IS NULL), 0) AS funded
       FROM campaign_item i WHERE i.organization_id = ?`,
  )
    .bind(org)
    .all<{ id: string; funded: number }>();
  for (const i of items) expect(i.funded, `${label}: item ${i.id}`).toBe(bruteItemFunded(rows, i.id));
  // donations.list's total is read from the rollups (decisions 011, 013): it equals count(*).
  const today = localDay(Date.now(), timeZone);
  for (const f of [
    {},
    { trashed: true },
    { status: ["completed" as const, "partially_refunded" as const] },
    { mode: "test" as const },
    { currency: "EUR" },
    { from: "2000-01-01", to: today },
    { trashed: true, from: "2000-01-01" },
    { status: ["refunded" as const, "pending" as const, "abandoned" as const], to: today },
    ...extraFilters,
  ] satisfies ListFilter[]) {
    const got = await caller.donations.list(f);
    const want = bruteListTotals(rows, f, timeZone);
    const { n } = (await testEnv.DB.prepare(
      `SELECT count(*) AS n FROM donation WHERE organization_id = ? AND trashed_at IS ${f.trashed ? "NOT " : ""}NULL`,
    )
      .bind(org)
      .first<{ n: number }>()) ?? { n: -1 };
    if (Object.keys(f).length === 0 || (Object.keys(f).length === 1 && "trashed" in f))
      expect(got.total, `${label}: list total ${JSON.stringify(f)} vs count(*)`).toBe(n);
    expect(got.total, `${label}: list total ${JSON.stringify(f)}`).toBe(
      want.reduce((t, x) => t + (x[1] as number), 0),
    );
    expect(totalsOf(got), `${label}: list totals ${JSON.stringify(f)}`).toEqual(want);
  }
  return rows;
}
