// donations.list: a page and its totals per currency in one D1 batch; totals from a rollup where its keys
// answer the filters exactly (decisions 011, 013), the page by the amount window where provably exact.
import { MATCHING_MAX } from "@core/bulk";
import { allowedDonationTargets, type DonationStatus } from "@core/status";
import { addDays, FILTER_DAY_MAX, FILTER_DAY_MIN } from "@core/time";
import { orgDb } from "../db/databases";
import { fail } from "../lib/fail";
import { checkedOffset } from "../lib/list";
import type { OrgReader } from "../trpc/init";
import type { DonationFilters, DonationListInput } from "./filters";
import {
  amountWindowPage,
  type CurrencyTotals,
  dailyTotalsBuilt,
  donationWhere,
  listPage,
  matchingRows,
  rollupTotals,
  SORT_COLUMNS,
  scanTotals,
} from "./list-queries";
import { presentDonation } from "./present";
import type { DonationListRow } from "./queries";

/** Gifts of the amount-order window per row asked for. */
export const AMOUNT_WINDOW_FACTOR = 40;
const AMOUNT_WINDOW_MAX = 5000;

export async function listDonations(ctx: OrgReader, input: DonationListInput) {
  const db = orgDb(ctx);
  const w = donationWhere(ctx.org.id, ctx.org.timeZone, input, { byDonor: true });
  const offset = checkedOffset(input.page, input.pageSize);
  const dir = input.desc ? "DESC" : "ASC";
  const order = `${SORT_COLUMNS[input.sort]} ${dir}, d.id ${dir}`;
  // Filters that donation_totals answers exactly, and with a date range donation_daily_totals (decision 013).
  const { status, currency, mode, trashed, page, pageSize, sort, desc, from, to, ...rest } = input;
  const fromRollup = Object.values(rest).every(
    (v) => v === undefined || v === "" || (Array.isArray(v) && v.length === 0),
  );
  // The same local days as donationWhere (which normalizes e.g. 02-30 to 03-01 through Date.UTC).
  const fromDay = from ? addDays(from, 0) : undefined;
  const toDay = to ? addDays(to, 0) : undefined;
  const dated = !!(fromDay || toDay);
  const daysInRange = [fromDay, toDay].every(
    (d) => d === undefined || (d >= FILTER_DAY_MIN && d <= FILTER_DAY_MAX),
  );
  const totalsKeys = { orgId: ctx.org.id, fromDay, toDay, trashed, status, currency, mode };
  // Amounts in different currencies are never added.
  let totalsStmt: D1PreparedStatement;
  // The daily rows count only if they were built in the zone this request's days are in.
  let dailyState: D1PreparedStatement | null = null;
  if (fromRollup && !dated) totalsStmt = rollupTotals(db, "donation_totals", false, totalsKeys);
  else if (fromRollup && daysInRange) {
    totalsStmt = rollupTotals(db, "donation_daily_totals", true, totalsKeys);
    dailyState = dailyTotalsBuilt(db, ctx.org.id, ctx.org.timeZone);
  } else totalsStmt = scanTotals(db, input, w);
  const pageStmt = listPage(db, w, { order, pageSize: input.pageSize, offset });
  // Every gift outside the amount window sorts after every gift in it, so when the window holds the whole
  // page the page is exact; else (a sparse range or a rare status) the ordinary page answers.
  const window = Math.min(AMOUNT_WINDOW_MAX, AMOUNT_WINDOW_FACTOR * (offset + input.pageSize));
  const windowed =
    input.sort === "amount" &&
    !input.q &&
    offset + input.pageSize <= AMOUNT_WINDOW_MAX &&
    Object.entries(rest).every(
      ([k, v]) =>
        k === "minAmountMinor" ||
        k === "maxAmountMinor" ||
        v === undefined ||
        v === "" ||
        (Array.isArray(v) && v.length === 0),
    );
  const windowStmt = windowed
    ? amountWindowPage(db, w, {
        orgId: ctx.org.id,
        window,
        dir,
        order,
        pageSize: input.pageSize,
        offset,
      })
    : null;
  const [rows, totalsRes, state] = await db.batch([
    windowStmt ?? pageStmt,
    totalsStmt,
    ...(dailyState ? [dailyState] : []),
  ]);
  // Not built yet, or built in a zone the organization has left: total from the donations.
  const totals = dailyState && !state?.results.length ? await scanTotals(db, input, w).all() : totalsRes;
  const byCurrency = (totals?.results ?? []) as CurrencyTotals[];
  const total = byCurrency.reduce((n, t) => n + t.count, 0);
  let pageRows = (rows?.results ?? []) as DonationListRow[];
  if (windowStmt && pageRows.length < Math.min(input.pageSize, Math.max(0, total - offset)))
    pageRows = (await pageStmt.all<DonationListRow>()).results;
  return {
    rows: pageRows.map(presentDonation),
    total,
    page,
    pageSize,
    totals: {
      countedMinor: byCurrency.reduce((n, t) => n + t.countedMinor, 0),
      currencies: byCurrency.length,
    },
    totalsByCurrency: byCurrency,
  };
}

// A snapshot for "all N matching" (decision 024): gifts that match later are never touched.
// `allowedTransitions` are the targets every matching gift may move to, none for the trash.
export async function matchingDonationIds(ctx: OrgReader, input: DonationFilters) {
  const w = donationWhere(ctx.org.id, ctx.org.timeZone, input, { byDonor: true });
  const { results } = await matchingRows(orgDb(ctx), w, MATCHING_MAX + 1);
  if (results.length > MATCHING_MAX)
    fail(
      "UNPROCESSABLE_CONTENT",
      `At most ${MATCHING_MAX.toLocaleString("en-US")} donations can be selected at once; narrow the filters`,
      { max: MATCHING_MAX },
    );
  const kinds = new Map(results.map((r) => [`${r.status}|${r.source}`, r]));
  let allowed: DonationStatus[] | null = input.trashed ? [] : null;
  for (const r of kinds.values()) {
    const mine = allowedDonationTargets(r.status, r.source);
    allowed = allowed ? allowed.filter((s) => mine.includes(s)) : mine;
  }
  return { ids: results.map((r) => r.id), allowedTransitions: allowed ?? [] };
}
