/**
 * The revenue series' buckets, one rule for every chart (DESIGN §4, docs/steering/research/domain.md §4.1):
 * by day up to six months, by month up to five years, by year beyond, on the organization's local days.
 */
import { addDays } from "./time";

type Bucket = "day" | "month" | "year";

/** Days, both ends included: any calendar half-year (Jul 1 – Dec 31) is still drawn by day. */
const DAILY_MAX_DAYS = 184;
const MONTHLY_BELOW_DAYS = 5 * 365;

export function bucketFor(fromDay: string, toDay: string): Bucket {
  const span = (Date.parse(toDay) - Date.parse(fromDay)) / 86_400_000 + 1;
  if (span <= DAILY_MAX_DAYS) return "day";
  if (span < MONTHLY_BELOW_DAYS) return "month";
  return "year";
}

const bucketKey = (day: string, b: Bucket) =>
  b === "day" ? day : b === "month" ? day.slice(0, 7) : day.slice(0, 4);

function nextBucket(key: string, b: Bucket) {
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

// Fast cold figures (decision 032): counts and sums are exact; the median gift and distinct donors are
// estimated within a stated bound, shown with "≈".

/** Net amounts fall in buckets [lo, lo × 1.025): the median's bucket mean is within 2.5% of it. */
const AMOUNT_BUCKET_RATIO = 1.025;
export const MEDIAN_ERROR_BOUND = AMOUNT_BUCKET_RATIO - 1;

/**
 * Each bucket's lowest net amount (minor units), ascending. The table analytics_bucket must hold the
 * same list (test/dashboard/rollups.test.ts compares them).
 */
export const AMOUNT_BUCKETS: readonly number[] = (() => {
  const lows = [0];
  for (let i = 0; ; i++) {
    const lo = Math.ceil(AMOUNT_BUCKET_RATIO ** i);
    if (lo > Number.MAX_SAFE_INTEGER) break;
    if (lo > (lows.at(-1) as number)) lows.push(lo);
  }
  return lows;
})();

export function amountBucket(net: number): number {
  let lo = 0;
  let hi = AMOUNT_BUCKETS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((AMOUNT_BUCKETS[mid] as number) <= net) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The middle gift's bucket mean: within MEDIAN_ERROR_BOUND, and exact when the bucket holds one amount. */
export function histogramMedian(rows: readonly { bucket: number; count: number; amount: number }[]) {
  const sorted = rows.filter((r) => r.count > 0).sort((a, b) => a.bucket - b.bucket);
  const n = sorted.reduce((s, r) => s + r.count, 0);
  if (!n) return null;
  const at = (i: number) => {
    let seen = 0;
    for (const r of sorted) {
      seen += r.count;
      if (i < seen) return r.amount / r.count;
    }
    return 0;
  };
  return n % 2 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}

/** Below this many donors the distinct count is exact. */
export const SKETCH_K = 1024;
/** Donor sketch values are uniform integers in [0, SKETCH_SPACE) (drizzle/0021's donor trigger). */
export const SKETCH_SPACE = 2 ** 52;
/** 95% of estimates fall within this relative error (2 standard errors of a KMV sketch). */
export const DISTINCT_ERROR_BOUND = 2 / Math.sqrt(SKETCH_K - 2);

/** Distinct donors from a bottom-k sample whose largest sketch value is `kth`. */
export function estimateDistinct(sampled: number, kth: number | null) {
  if (sampled < SKETCH_K || kth === null) return { value: sampled, exact: true };
  return { value: Math.round((SKETCH_K - 1) / ((kth + 1) / SKETCH_SPACE)), exact: false };
}

const nextMonthStart = (day: string) => `${nextBucket(day.slice(0, 7), "month")}-01`;

/**
 * Local days [from, to] as the rollups read them: the whole months inside, and up to two stretches of
 * days at the ends. `to` may be DAY_KEY_AFTER (no end), `from` "0000-01-01" (no start).
 */
export function rangeParts(from: string, to: string) {
  const days: [string, string][] = [];
  const noEnd = to >= "9999";
  const noStart = from <= "0000-01-01";
  let first = noStart
    ? "0000-00"
    : from.slice(8) === "01"
      ? from.slice(0, 7)
      : nextMonthStart(from).slice(0, 7);
  const last = noEnd
    ? "9999-99"
    : nextMonthStart(to) === addDays(to, 1)
      ? to.slice(0, 7)
      : to.slice(0, 7) === "0000-00"
        ? "0000-00"
        : previousMonth(to.slice(0, 7));
  if (first > last) {
    days.push([from, to]);
    return { months: null, days };
  }
  if (!noStart && from.slice(8) !== "01") days.push([from, addDays(`${first}-01`, -1)]);
  if (!noEnd && nextMonthStart(to) !== addDays(to, 1)) days.push([`${to.slice(0, 7)}-01`, to]);
  if (noStart) first = "0000-00";
  return { months: [first, last] as [string, string], days };
}

/** A signed stretch of periods: [grain, first, last, sign], summed times its sign. */
type SignedPart = ["m" | "d", string, string, 1 | -1];

/**
 * For sums only, never a set of donors: a stretch covering most of its month is read as the month less
 * the days it leaves out (sign −1), as a month's row is the sum of its days' rows.
 */
export function signedRangeParts(from: string, to: string): SignedPart[] {
  const { months, days } = rangeParts(from, to);
  const out: SignedPart[] = months ? [["m", months[0], months[1], 1]] : [];
  const span = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000 + 1;
  for (const [a, b] of days) {
    for (let x = a; x <= b; x = nextMonthStart(x)) {
      const first = `${x.slice(0, 7)}-01`;
      const last = addDays(nextMonthStart(x), -1);
      const y = b < last ? b : last;
      const inside = span(x, y);
      if (span(first, last) - inside + 1 < inside) {
        out.push(["m", x.slice(0, 7), x.slice(0, 7), 1]);
        if (x > first) out.push(["d", first, addDays(x, -1), -1]);
        if (y < last) out.push(["d", addDays(y, 1), last, -1]);
      } else out.push(["d", x, y, 1]);
    }
  }
  return out;
}

function previousMonth(month: string) {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return m === 1
    ? `${String(y - 1).padStart(4, "0")}-12`
    : `${String(y).padStart(4, "0")}-${String(m - 1).padStart(2, "0")}`;
}
