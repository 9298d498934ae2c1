/**
 * The fundraising reports (issue 27) recounted by brute force from the donation rows, in plain
 * TypeScript with nothing of worker/reports or core/reports: each definition is written out again
 * here, gift by gift, so the SQL and its arithmetic are checked against the words (core/reports.ts).
 */
import { localDay } from "@core/time";
import type { RawDonation } from "../donations/brute";
import { testEnv } from "../helpers";

export type { RawDonation };

export interface Scope {
  timeZone: string;
  /** The month the year starts in: 1 for calendar years, the fiscal start month otherwise. */
  startMonth: number;
  currency: string;
  campaignId?: string;
  /** Donor ids the donor filters (tier, tag) keep; undefined when none is set. */
  donors?: Set<string>;
  /** The gifts' own filters, as /donations names them. */
  paymentMethod?: string;
  frequency?: string;
  source?: string;
}

/** A gift's frequency under a filter: "recurring" is any frequency but one_time (the list's words). */
const frequencyIs = (d: RawDonation, f: string) =>
  f === "recurring" ? d.frequency !== "one_time" : d.frequency === f;

export const counted = (d: RawDonation) =>
  (d.status === "completed" || d.status === "partially_refunded") &&
  d.mode === "live" &&
  d.trashed_at === null;
export const net = (d: RawDonation) => d.amount_minor - d.refunded_minor;

/** The year a gift falls in: its local day's year, one less before the start month. */
export function yearOf(ms: number, s: Pick<Scope, "timeZone" | "startMonth">) {
  const day = localDay(ms, s.timeZone);
  const y = Number(day.slice(0, 4));
  return Number(day.slice(5, 7)) >= s.startMonth ? y : y - 1;
}

/** The gifts a report counts under `s`. */
export function giftsIn(rows: readonly RawDonation[], s: Scope) {
  return rows.filter(
    (d) =>
      counted(d) &&
      d.currency === s.currency &&
      (!s.campaignId || d.campaign_id === s.campaignId) &&
      (!s.paymentMethod || d.payment_method === s.paymentMethod) &&
      (!s.frequency || frequencyIs(d, s.frequency)) &&
      (!s.source || d.source === s.source) &&
      (!s.donors || (d.donor_id !== null && s.donors.has(d.donor_id))),
  );
}

function perDonorYears(gifts: readonly RawDonation[], s: Scope) {
  const years = new Map<string, Map<number, { amount: number; gifts: number; last: number }>>();
  for (const d of gifts) {
    if (!d.donor_id) continue;
    const y = yearOf(d.donated_at, s);
    const m = years.get(d.donor_id) ?? new Map();
    const c = m.get(y) ?? { amount: 0, gifts: 0, last: 0 };
    c.amount += net(d);
    c.gifts += 1;
    c.last = Math.max(c.last, d.donated_at);
    m.set(y, c);
    years.set(d.donor_id, m);
  }
  return years;
}

/** Giving by year, retention and recapture, and the cohort table over from..to. */
export function bruteYearly(rows: readonly RawDonation[], s: Scope, from: number, to: number) {
  const gifts = giftsIn(rows, s);
  const byDonor = perDonorYears(gifts, s);
  const givers = (y: number) => new Set([...byDonor].filter(([, m]) => m.has(y)).map(([id]) => id));
  const firstYear = new Map([...byDonor].map(([id, m]) => [id, Math.min(...m.keys())]));
  const giving = [];
  const retention = [];
  const cohorts = [];
  for (let y = from; y <= to; y++) {
    const inYear = gifts.filter((d) => yearOf(d.donated_at, s) === y);
    const prevRaised = gifts.filter((d) => yearOf(d.donated_at, s) === y - 1).reduce((t, d) => t + net(d), 0);
    const raised = inYear.reduce((t, d) => t + net(d), 0);
    const now = givers(y);
    const before = givers(y - 1);
    const newDonors = [...now].filter((id) => firstYear.get(id) === y).length;
    giving.push({
      year: y,
      raisedMinor: raised,
      gifts: inYear.length,
      donors: now.size,
      newDonors,
      averageMinor: inYear.length ? Math.round(raised / inYear.length) : 0,
      change: prevRaised ? (raised - prevRaised) / prevRaised : null,
    });
    const retained = [...before].filter((id) => now.has(id)).length;
    const lapsed = [...firstYear].filter(([id, f]) => f < y - 1 && !before.has(id)).map(([id]) => id);
    const recaptured = lapsed.filter((id) => now.has(id)).length;
    retention.push({
      year: y,
      donors: now.size,
      newDonors,
      previousDonors: before.size,
      retained,
      retention: before.size ? retained / before.size : null,
      lapsed: lapsed.length,
      recaptured,
      recapture: lapsed.length ? recaptured / lapsed.length : null,
    });
    const cohort = [...firstYear].filter(([, f]) => f === y).map(([id]) => id);
    const cells = [];
    for (let z = y; z <= to; z++) {
      const gave = cohort.filter((id) => byDonor.get(id)?.has(z));
      cells.push({
        year: z,
        donors: gave.length,
        amountMinor: gave.reduce((t, id) => t + (byDonor.get(id)?.get(z)?.amount ?? 0), 0),
        share: cohort.length ? gave.length / cohort.length : null,
      });
    }
    cohorts.push({ firstYear: y, donors: cohort.length, cells });
  }
  return { giving, retention, cohorts };
}

/**
 * LYBUNT (gave in `current` − 1, nothing since) or SYBUNT (last gave before `current` − 1),
 * biggest total in the last year of giving first, ties by id.
 */
export function bruteLapsed(
  rows: readonly RawDonation[],
  s: Scope,
  kind: "lybunt" | "sybunt",
  current: number,
) {
  const byDonor = perDonorYears(giftsIn(rows, s), s);
  const out = [];
  for (const [id, m] of byDonor) {
    const lastYear = Math.max(...m.keys());
    if (kind === "lybunt" ? lastYear !== current - 1 : lastYear >= current - 1) continue;
    const all = [...m.values()];
    out.push({
      donorId: id,
      lastYear,
      lastYearMinor: m.get(lastYear)?.amount ?? 0,
      lastGiftAt: Math.max(...all.map((c) => c.last)),
      lifetimeMinor: all.reduce((t, c) => t + c.amount, 0),
      gifts: all.reduce((t, c) => t + c.gifts, 0),
    });
  }
  return out.sort((a, b) => b.lastYearMinor - a.lastYearMinor || (a.donorId < b.donorId ? -1 : 1));
}

/** Donors per tier by their giving in `year`: the tier whose [min, max) holds it, highest minimum first. */
export function brutePyramid(
  rows: readonly RawDonation[],
  s: Scope,
  year: number,
  tiers: readonly { id: string; minMinor: number; maxMinor: number | null }[],
) {
  const totals = new Map<string, number>();
  for (const d of giftsIn(rows, s))
    if (d.donor_id && yearOf(d.donated_at, s) === year)
      totals.set(d.donor_id, (totals.get(d.donor_id) ?? 0) + net(d));
  const out = new Map<string | null, { donors: number; amountMinor: number }>();
  for (const total of totals.values()) {
    const holding = tiers
      .filter((t) => t.minMinor <= total && (t.maxMinor === null || total < t.maxMinor))
      .sort((a, b) => b.minMinor - a.minMinor);
    const id = holding[0]?.id ?? null;
    const c = out.get(id) ?? { donors: 0, amountMinor: 0 };
    c.donors += 1;
    c.amountMinor += total;
    out.set(id, c);
  }
  return out;
}

/** One campaign over the local days from..to (all time when absent). */
export function bruteCampaign(
  rows: readonly RawDonation[],
  s: Scope,
  id: string,
  from?: string,
  to?: string,
) {
  const gifts = giftsIn(rows, { ...s, campaignId: id }).filter((d) => {
    const day = localDay(d.donated_at, s.timeZone);
    return (!from || day >= from) && (!to || day <= to);
  });
  const amounts = gifts.map(net).sort((a, b) => a - b);
  const m = Math.floor((amounts.length - 1) / 2);
  const raised = amounts.reduce((t, a) => t + a, 0);
  const days = new Map<string, number>();
  for (const d of gifts) {
    const day = localDay(d.donated_at, s.timeZone);
    days.set(day, (days.get(day) ?? 0) + net(d));
  }
  return {
    raisedMinor: raised,
    gifts: gifts.length,
    donors: new Set(gifts.map((d) => d.donor_id).filter(Boolean)).size,
    averageMinor: gifts.length ? Math.round(raised / gifts.length) : 0,
    medianMinor: amounts.length
      ? Math.round(
          amounts.length % 2
            ? (amounts[m] as number)
            : ((amounts[m] as number) + (amounts[m + 1] as number)) / 2,
        )
      : 0,
    firstGiftAt: gifts.length ? Math.min(...gifts.map((d) => d.donated_at)) : null,
    lastGiftAt: gifts.length ? Math.max(...gifts.map((d) => d.donated_at)) : null,
    days: [...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, raisedMinor]) => ({ day, raisedMinor })),
  };
}

/** The analytics cache keys on the data version; gifts written behind the API's back must move it. */
export async function bumpVersion(org: string) {
  await testEnv.DB.prepare(
    `INSERT INTO analytics_version (organization_id, version) VALUES (?1, 1)
       ON CONFLICT (organization_id) DO UPDATE SET version = version + 1`,
  )
    .bind(org)
    .run();
}
