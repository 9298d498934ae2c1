// The fundraising reports (decision 033; definitions in core/reports.ts): one currency at a time, counted
// gifts only, years in the organization's zone and fiscal year; cached per data version like the dashboard.
import { CURRENCIES } from "@core/currencies";
import type { DonationSource, FrequencyFilter } from "@core/labels";
import { periodProblem } from "@core/period";
import {
  COMPARE_MAX,
  type LapsedKind,
  lapsedYears,
  type PyramidTier,
  pyramidBands,
  pyramidRows,
  REPORT_YEAR_MIN,
  REPORT_YEARS_DEFAULT,
  reportYearLabel,
  reportYears,
  startMonthOf,
  type YearBasis,
  yearOfDay,
  yearRangeProblem,
  yearReports,
} from "@core/reports";
import { addDays, localDay, offsetSpans, startOfLocalDay } from "@core/time";
import { cachedAnalytics } from "../dashboard/cache";
import { orgDb } from "../db/databases";
import { auditStatement } from "../lib/audit";
import { fail } from "../lib/fail";
import { checkedOffset } from "../lib/list";
import type { OrgCtx } from "../trpc/init";
import { presentLapsedRow } from "./present";
import {
  type CampaignRow,
  campaignDaysStatement,
  campaignStatsStatements,
  campaignsStatement,
  firstGiftStatement,
  type GiftFilter,
  type LapsedRow,
  lapsedStatement,
  optionStatements,
  pyramidStatement,
  tiersStatement,
  type YearSpan,
  yearlyStatement,
} from "./queries";

type Ctx = Pick<OrgCtx, "env" | "org" | "waitUntil">;

/** The campaign comparison takes these too. */
interface GiftOnlyFilters {
  paymentMethod?: string;
  frequency?: FrequencyFilter;
  source?: DonationSource;
}

interface ReportFilters extends GiftOnlyFilters {
  basis: YearBasis;
  currency?: string;
  campaignId?: string;
  tierId?: string;
  tagId?: string;
}

const today = (ctx: Ctx) => localDay(Date.now(), ctx.org.timeZone);

function giftFilter(ctx: Ctx, f: ReportFilters): GiftFilter {
  return {
    orgId: ctx.org.id,
    currency: f.currency ?? ctx.org.defaultCurrency,
    campaignId: f.campaignId,
    tierId: f.tierId,
    tagId: f.tagId,
    paymentMethod: f.paymentMethod,
    frequency: f.frequency,
    source: f.source,
  };
}

/** The tenant and data version are the cache's own key parts. */
const giftKey = (g: GiftFilter) => [
  g.currency,
  g.campaignId,
  g.tierId,
  g.tagId,
  g.paymentMethod,
  g.frequency,
  g.source,
];
const filterKey = (g: GiftFilter, f: ReportFilters) => [f.basis, ...giftKey(g)];

export function reportOptions(ctx: Ctx) {
  const day = today(ctx);
  return cachedAnalytics(ctx, ctx.org, "report-options", [day], async () => {
    const db = orgDb(ctx);
    const [month, firsts] = await db.batch(optionStatements(db, ctx.org.id, CURRENCIES));
    const first = ((firsts?.results ?? []) as { currency: string; first: number | null }[]).filter(
      (r) => r.first !== null,
    );
    return {
      today: day,
      timeZone: ctx.org.timeZone,
      defaultCurrency: ctx.org.defaultCurrency,
      fiscalYearStartMonth: (month?.results[0] as { month: number } | undefined)?.month ?? 1,
      currencies: [...new Set([ctx.org.defaultCurrency, ...first.map((r) => r.currency)])].sort(),
      firstGiftAt: Object.fromEntries(first.map((r) => [r.currency, r.first as number])),
    };
  });
}

/** Default years: the current one and the four before, from the currency's first gift on. */
export function yearlyReport(ctx: Ctx, input: ReportFilters & { fromYear?: number; toYear?: number }) {
  const day = today(ctx);
  const g = giftFilter(ctx, input);
  return cachedAnalytics(
    ctx,
    ctx.org,
    "report-yearly",
    [day, ...filterKey(g, input), input.fromYear, input.toYear],
    async () => {
      const db = orgDb(ctx);
      const head = await firstGiftStatement(db, g).first<{
        first: number | null;
        currencyFirst: number | null;
        month: number;
      }>();
      const month = startMonthOf(input.basis, head?.month ?? 1);
      const current = yearOfDay(day, month);
      const yearOf = (at: number | null | undefined) =>
        at != null ? yearOfDay(localDay(at, ctx.org.timeZone), month) : current;
      const firstYear = yearOf(head?.first);
      // The default years start where the filter bar's pickers do, so its From is the first year answered;
      // a filtered set that starts later shows its earlier years as years without giving.
      const range = yearRange(input, current, yearOf(head?.currencyFirst));
      const label = (y: number) => reportYearLabel(y, month);
      // Every year from the first gift (first years, lapsed donors) to the range's end.
      const from = Math.max(REPORT_YEAR_MIN, Math.min(firstYear, range.fromYear));
      const years = reportYears(from, range.toYear, input.basis, head?.month ?? 1, ctx.org.timeZone);
      const rows = head?.first != null ? await yearlyStatement(db, g, spans(years)).all() : { results: [] };
      type Row = {
        k: "t" | "c";
        fy: number | null;
        yr: number;
        amt: number;
        n: number;
        donors: number;
        kept: number;
      };
      const all = rows.results as Row[];
      const report = yearReports(
        all
          .filter((r) => r.k === "t")
          .map((r) => ({ year: r.yr, raisedMinor: r.amt, gifts: r.n, donors: r.donors })),
        all
          .filter((r) => r.k === "c")
          .map((r) => ({
            firstYear: r.fy as number,
            year: r.yr,
            donors: r.donors,
            gifts: r.n,
            amountMinor: r.amt,
            retained: r.kept,
          })),
        range.fromYear,
        range.toYear,
        label,
      );
      return {
        currency: g.currency,
        basis: input.basis,
        fiscalYearStartMonth: head?.month ?? 1,
        fromYear: range.fromYear,
        toYear: range.toYear,
        currentYear: current,
        firstYear: head?.first != null ? firstYear : null,
        ...report,
      };
    },
  );
}

function yearRange(input: { fromYear?: number; toYear?: number }, current: number, firstYear: number) {
  const toYear = input.toYear ?? current;
  if (toYear > current)
    fail("BAD_REQUEST", `The last year cannot be after the current year (${current})`, { field: "toYear" });
  const fromYear =
    input.fromYear ?? Math.min(toYear, Math.max(firstYear, toYear - (REPORT_YEARS_DEFAULT - 1)));
  const problem = yearRangeProblem({ fromYear, toYear });
  if (problem) fail("BAD_REQUEST", problem.message, { field: problem.field });
  return { fromYear, toYear };
}

const spans = (years: readonly { year: number; start: number; end: number }[]): YearSpan[] =>
  years.map((y) => [y.year, y.start, y.end]);

interface LapsedInput extends ReportFilters {
  kind: LapsedKind;
  q?: string;
}

/** The last complete year, the current one, and (SYBUNT) the years from the first gift before the last. */
async function lapsedSetup(ctx: Ctx, g: GiftFilter, basis: YearBasis, day: string) {
  const db = orgDb(ctx);
  const head = await firstGiftStatement(db, g).first<{ first: number | null; month: number }>();
  const fiscal = head?.month ?? 1;
  const month = startMonthOf(basis, fiscal);
  const { last, current } = lapsedYears(day, basis, fiscal, ctx.org.timeZone);
  const firstYear =
    head?.first != null ? yearOfDay(localDay(head.first, ctx.org.timeZone), month) : last.year;
  const before =
    firstYear < last.year ? reportYears(firstYear, last.year - 1, basis, fiscal, ctx.org.timeZone) : [];
  return {
    db,
    head,
    last,
    current,
    span: { years: spans(before), lastYear: spans([last])[0] as YearSpan, currentStart: current.start },
    label: (y: number) => reportYearLabel(y, month),
  };
}

export function lapsedReport(ctx: Ctx, input: LapsedInput & { page: number; pageSize: number }) {
  const day = today(ctx);
  const g = giftFilter(ctx, input);
  return cachedAnalytics(
    ctx,
    ctx.org,
    "report-lapsed",
    [day, input.kind, ...filterKey(g, input), input.page, input.pageSize, JSON.stringify(input.q ?? "")],
    async () => {
      const s = await lapsedSetup(ctx, g, input.basis, day);
      const header = {
        currency: g.currency,
        kind: input.kind,
        basis: input.basis,
        lastYear: { year: s.last.year, label: s.last.label },
        currentYear: { year: s.current.year, label: s.current.label },
      };
      if (s.head?.first == null) return { ...header, rows: [], total: 0, totalMinor: 0 };
      const run = (page: number) =>
        lapsedStatement(s.db, g, {
          kind: input.kind,
          ...s.span,
          limit: input.pageSize,
          offset: checkedOffset(page, input.pageSize),
          q: input.q,
        }).all<LapsedRow & { total: number; totalMinor: number }>();
      const rows = (await run(input.page)).results;
      // Past the last page the window functions have no row to ride on: the size comes from page 1.
      const sized = rows.length || input.page === 1 ? rows : (await run(1)).results;
      return {
        ...header,
        rows: rows.map((r) => presentLapsedRow(r, s.label)),
        total: sized[0]?.total ?? 0,
        totalMinor: sized[0]?.totalMinor ?? 0,
      };
    },
  );
}

/** Keyset pages after (total, id), never truncated or overlapping; the first page counts and audits. */
export async function lapsedExportPage(
  ctx: Pick<OrgCtx, "env" | "org" | "user" | "impersonatorId" | "waitUntil">,
  input: LapsedInput & { after?: string; limit: number },
) {
  const day = today(ctx);
  const g = giftFilter(ctx, input);
  const s = await lapsedSetup(ctx, g, input.basis, day);
  const after = input.after ? parseCursor(input.after) : undefined;
  const page = lapsedStatement(s.db, g, {
    kind: input.kind,
    ...s.span,
    limit: input.limit,
    after,
    q: input.q,
  });
  const { after: _a, limit: _l, ...filters } = input;
  const [result] = await s.db.batch(
    after
      ? [page]
      : [
          page,
          auditStatement(ctx, {
            action: "report.export",
            entityType: "report",
            entityId: input.kind,
            after: { ...filters, currency: g.currency },
          }),
        ],
  );
  const rows = (result?.results ?? []) as (LapsedRow & { total: number })[];
  const lastRow = rows[rows.length - 1];
  return {
    currency: g.currency,
    lastYear: { year: s.last.year, label: s.last.label },
    rows: rows.map((r) => presentLapsedRow(r, s.label)),
    total: after ? undefined : (rows[0]?.total ?? 0),
    next: rows.length === input.limit && lastRow ? `${lastRow.lastYearMinor}:${lastRow.id}` : undefined,
  };
}

function parseCursor(cursor: string): { total: number; id: string } {
  const at = cursor.indexOf(":");
  const total = Number(cursor.slice(0, at));
  if (at < 1 || !Number.isSafeInteger(total))
    fail("BAD_REQUEST", "Invalid export cursor", { field: "after" });
  return { total, id: cursor.slice(at + 1) };
}

/** Donors by the tier their giving in `year` puts them in (default: the current year so far). */
export function pyramidReport(ctx: Ctx, input: ReportFilters & { year?: number }) {
  const day = today(ctx);
  const g = giftFilter(ctx, input);
  return cachedAnalytics(
    ctx,
    ctx.org,
    "report-pyramid",
    [day, ...filterKey(g, input), input.year],
    async () => {
      const db = orgDb(ctx);
      const [monthRow, tierRows] = await db.batch([
        db.prepare("SELECT fiscal_year_start_month AS month FROM organization WHERE id = ?").bind(ctx.org.id),
        tiersStatement(db, ctx.org.id),
      ]);
      const fiscal = (monthRow?.results[0] as { month: number } | undefined)?.month ?? 1;
      const month = startMonthOf(input.basis, fiscal);
      const current = yearOfDay(day, month);
      const year = input.year ?? current;
      if (year > current)
        fail("BAD_REQUEST", `The year cannot be after the current year (${current})`, { field: "year" });
      const [span] = reportYears(year, year, input.basis, fiscal, ctx.org.timeZone);
      if (!span) fail("BAD_REQUEST", "Choose a year", { field: "year" });
      const tiers = (tierRows?.results ?? []) as PyramidTier[];
      const bands = pyramidBands(tiers);
      const counts = (await pyramidStatement(db, g, { start: span.start, end: span.end, bands }).all())
        .results as {
        i: number;
        donors: number;
        amountMinor: number;
      }[];
      const byBand = bands.map((_, i) => counts.find((c) => c.i === i) ?? { donors: 0, amountMinor: 0 });
      const rows = pyramidRows(tiers, bands, byBand);
      return {
        currency: g.currency,
        basis: input.basis,
        year,
        label: span.label,
        currentYear: current,
        tiers: tiers.length,
        rows,
        donors: rows.reduce((n, r) => n + r.donors, 0),
        amountMinor: rows.reduce((n, r) => n + r.amountMinor, 0),
      };
    },
  );
}

interface CompareInput extends GiftOnlyFilters {
  campaignIds: string[];
  currency?: string;
  tierId?: string;
  tagId?: string;
  from?: string;
  to?: string;
}

/** The instant after every gift: the end of an open period. */
const NO_END_MS = 8.64e15 + 1;

/** Another organization's campaign is not found; one in another currency is refused: no chart mixes two. */
export function campaignComparison(ctx: Ctx, input: CompareInput) {
  const day = today(ctx);
  const ids = [...new Set(input.campaignIds)];
  if (ids.length < 2 || ids.length > COMPARE_MAX)
    fail("BAD_REQUEST", `Compare 2 to ${COMPARE_MAX} different campaigns`, { field: "campaignIds" });
  const g = giftFilter(ctx, { basis: "calendar", ...input, campaignId: undefined });
  const problem = periodProblem(input, day);
  if (problem) fail("BAD_REQUEST", problem.message, { field: problem.field });
  return cachedAnalytics(
    ctx,
    ctx.org,
    "report-campaigns",
    [day, ...giftKey(g), input.from, input.to, ...ids],
    async () => {
      const db = orgDb(ctx);
      const tz = ctx.org.timeZone;
      const from = input.from ? startOfLocalDay(input.from, tz) : 0;
      const until = input.to ? startOfLocalDay(addDays(input.to, 1), tz) : NO_END_MS;
      const q = campaignStatsStatements(db, g, ids, from, until);
      const [campaigns, stats, ...medians] = await db.batch([
        campaignsStatement(db, ctx.org.id, ids),
        q.stats,
        ...q.medians,
      ]);
      const found = (campaigns?.results ?? []) as CampaignRow[];
      const missing = ids.find((id) => !found.some((c) => c.id === id));
      if (missing) fail("NOT_FOUND", "Campaign not found", { campaignId: missing });
      const other = found.find((c) => c.currency !== g.currency);
      if (other)
        fail(
          "BAD_REQUEST",
          `“${other.title}” raises ${other.currency}, not ${g.currency}: compare campaigns of one currency`,
          {
            field: "campaignIds",
          },
        );
      type Stat = {
        id: string;
        gifts: number;
        raisedMinor: number;
        donors: number;
        firstAt: number;
        lastAt: number;
      };
      const statRows = (stats?.results ?? []) as Stat[];
      const bounds = statRows.reduce(
        (b, s) => ({ lo: Math.min(b.lo, s.firstAt), hi: Math.max(b.hi, s.lastAt) }),
        { lo: Number.POSITIVE_INFINITY, hi: Number.NEGATIVE_INFINITY },
      );
      const days = statRows.length
        ? ((
            await campaignDaysStatement(
              db,
              g,
              ids,
              offsetSpans(bounds.lo, bounds.hi + 1, tz).map(
                ([s, e, o]) => [s, e, o, null] as [number, number, number, null],
              ),
            ).all()
          ).results as { id: string; day: string; raisedMinor: number }[])
        : [];
      const rows = ids.map((id, i) => {
        const c = found.find((x) => x.id === id) as CampaignRow;
        const s = statRows.find((x) => x.id === id);
        const median = (medians[i]?.results[0] as { median: number | null } | undefined)?.median ?? null;
        const firstDay = s ? localDay(s.firstAt, tz) : null;
        const startDay = c.startAt !== null ? localDay(c.startAt, tz) : null;
        return {
          id,
          title: c.title,
          status: c.status,
          raisedMinor: s?.raisedMinor ?? 0,
          gifts: s?.gifts ?? 0,
          donors: s?.donors ?? 0,
          averageMinor: s?.gifts ? Math.round(s.raisedMinor / s.gifts) : 0,
          medianMinor: Math.round(median ?? 0),
          firstGiftAt: s?.firstAt ?? null,
          lastGiftAt: s?.lastAt ?? null,
          // "Days since start" counts from the campaign's start, or the first gift's day when the
          // period begins later or a gift came earlier.
          day0:
            startDay && firstDay && startDay <= firstDay && (!input.from || startDay >= input.from)
              ? startDay
              : firstDay,
          days: days.filter((d) => d.id === id).map((d) => ({ day: d.day, raisedMinor: d.raisedMinor })),
        };
      });
      const firstDays = rows.flatMap((r) => (r.day0 ? [r.day0] : [])).sort();
      return {
        currency: g.currency,
        from: input.from ?? firstDays[0] ?? day,
        to: input.to ?? day,
        campaigns: rows,
      };
    },
  );
}
