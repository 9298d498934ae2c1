/**
 * The revenue series' buckets, one rule for every chart (the dashboard, campaign analytics, the
 * platform overview): DESIGN §4 / docs/steering/research/domain.md §4.1 bucket by the span a series covers —
 * by day up to about six months, by month up to five years, by year beyond — always on the
 * organization's local days. "Six months" is any calendar half-year: up to 184 days (Jul 1 – Dec 31)
 * is still drawn by day. (Two copies of this rule had drifted apart: the dashboard drew a 184-day
 * range by day and campaign analytics by month.)
 */
import { addDays } from "./time";

export type Bucket = "day" | "month" | "year";

/** The longest span, in days (both ends included), still drawn by day. */
export const DAILY_MAX_DAYS = 184;
/** Spans shorter than this many days are drawn by month; longer ones by year. */
export const MONTHLY_BELOW_DAYS = 5 * 365;

export function bucketFor(fromDay: string, toDay: string): Bucket {
  const span = (Date.parse(toDay) - Date.parse(fromDay)) / 86_400_000 + 1;
  if (span <= DAILY_MAX_DAYS) return "day";
  if (span < MONTHLY_BELOW_DAYS) return "month";
  return "year";
}

/** The bucket a local day falls in: the day, "YYYY-MM" or "YYYY". */
export const bucketKey = (day: string, b: Bucket) =>
  b === "day" ? day : b === "month" ? day.slice(0, 7) : day.slice(0, 4);

export function nextBucket(key: string, b: Bucket) {
  if (b === "day") return addDays(key, 1);
  if (b === "year") return String(Number(key) + 1);
  const [y, m] = key.split("-").map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}

/** Zero-filled buckets from `fromDay` to `toDay` (inclusive), summing the per-day rows. */
export function bucketSeries(
  rows: readonly { day: string; raised: number; count: number }[],
  fromDay: string,
  toDay: string,
  bucket: Bucket = bucketFor(fromDay, toDay),
) {
  const sums = new Map<string, { raised: number; count: number }>();
  for (const r of rows) {
    const k = bucketKey(r.day, bucket);
    const cur = sums.get(k) ?? { raised: 0, count: 0 };
    cur.raised += r.raised;
    cur.count += r.count;
    sums.set(k, cur);
  }
  const out: { period: string; raised: number; count: number }[] = [];
  const last = bucketKey(toDay, bucket);
  for (let k = bucketKey(fromDay, bucket); k <= last; k = nextBucket(k, bucket))
    out.push({ period: k, raised: sums.get(k)?.raised ?? 0, count: sums.get(k)?.count ?? 0 });
  return out;
}
