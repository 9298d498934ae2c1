import { bucketFor, bucketSeries } from "@core/analytics";
import { amountMinor, calendarDay, currencyCode, enumSet, giftInstant } from "@core/schemas";
import {
  allowedDonationTargets,
  COUNTED_SQL,
  countedWithin,
  type DonationStatus,
  donationStatuses,
  isCounted,
} from "@core/status";
import { addDays, FILTER_DAY_MAX, FILTER_DAY_MIN, localDay, startOfLocalDay } from "@core/time";
import { z } from "zod";
import { generateId } from "../../auth/crypto";
import { allGuards, type Guard } from "../../lib/guard";
import { add, checkedOffset, likeEscape, pageSchema, type Where, where } from "../../lib/list";
import { cachedAnalytics } from "../../services/analytics-cache";
import { type DonationActor, writeDonation } from "../../services/donation-write";
import { adminProcedure, fail, orgProcedure, router } from "../init";

export interface DonationRow {
  id: string;
  organization_id: string;
  number: number;
  donor_id: string | null;
  campaign_id: string | null;
  campaign_item_id: string | null;
  item_quantity: number;
  amount_minor: number;
  fee_covered_minor: number;
  processing_fee_minor: number;
  platform_fee_minor: number;
  refunded_minor: number;
  currency: string;
  status: DonationStatus;
  frequency: string;
  payment_method: string;
  gateway: string | null;
  gateway_transaction_id: string | null;
  source: string;
  mode: string;
  anonymous: number;
  message: string | null;
  tribute_type: string | null;
  tribute_name: string | null;
  internal_note: string | null;
  donated_at: number;
  trashed_at: number | null;
  created_at: number;
  updated_at: number;
  created_by?: string | null;
  /** Fresh on every write; a write is conditional on the one it read (decisions 006, 020). */
  change_token: string | null;
  donor_name?: string | null;
  donor_email?: string | null;
  campaign_title?: string | null;
}

export function presentDonation(d: DonationRow) {
  return {
    id: d.id,
    number: d.number,
    donorId: d.donor_id,
    donorName: d.donor_name ?? null,
    donorEmail: d.donor_email ?? null,
    campaignId: d.campaign_id,
    campaignTitle: d.campaign_title ?? null,
    campaignItemId: d.campaign_item_id,
    itemQuantity: d.item_quantity,
    amountMinor: d.amount_minor,
    feeCoveredMinor: d.fee_covered_minor,
    processingFeeMinor: d.processing_fee_minor,
    platformFeeMinor: d.platform_fee_minor,
    refundedMinor: d.refunded_minor,
    netMinor: d.amount_minor - d.refunded_minor - d.processing_fee_minor - d.platform_fee_minor,
    currency: d.currency,
    status: d.status,
    allowedTransitions: d.trashed_at ? [] : allowedDonationTargets(d.status, d.source),
    frequency: d.frequency,
    paymentMethod: d.payment_method,
    gateway: d.gateway,
    gatewayTransactionId: d.gateway_transaction_id,
    source: d.source,
    mode: d.mode,
    anonymous: !!d.anonymous,
    message: d.message,
    tributeType: d.tribute_type,
    tributeName: d.tribute_name,
    internalNote: d.internal_note,
    donatedAt: d.donated_at,
    trashed: d.trashed_at !== null,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
  };
}

export const SELECT = `d.*, CASE WHEN dn.anonymized_at IS NOT NULL THEN 'Anonymized' ELSE COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, dn.email) END AS donor_name,
  dn.email AS donor_email, c.title AS campaign_title`;
export const FROM =
  "donation d LEFT JOIN donor dn ON dn.id = d.donor_id LEFT JOIN campaign c ON c.id = d.campaign_id";

async function loadDonation(db: D1Database, orgId: string, id: string) {
  const row = await db
    .prepare(`SELECT ${SELECT} FROM ${FROM} WHERE d.organization_id = ? AND d.id = ?`)
    .bind(orgId, id)
    .first<DonationRow>();
  if (!row) fail("NOT_FOUND", "Donation not found");
  return row;
}

const TIMELINE_ACTIONS = [
  "donation.status",
  "donation.correction",
  "donation.webhook_status",
  "donation.abandon",
  "donation.trash",
  "donation.restore",
];

/**
 * The status timeline of the detail page: recorded (with the first status), then every status
 * change, trash and restore from the audit log, oldest first.
 */
function statusTimeline(
  d: DonationRow,
  events: {
    action: string;
    before: string | null;
    after: string | null;
    reason: string | null;
    at: number;
    actor: string | null;
  }[],
) {
  const parse = (v: string | null) =>
    v ? (JSON.parse(v) as { status?: string; refundedMinor?: number }) : {};
  const firstStatus = events.map((e) => parse(e.before).status).find((x) => !!x) ?? d.status;
  const out: {
    at: number;
    kind: "recorded" | "status" | "trash" | "restore";
    status: string | null;
    refundedMinor: number | null;
    reason: string | null;
    actor: string | null;
  }[] = [
    {
      at: d.created_at,
      kind: "recorded",
      status: firstStatus,
      refundedMinor: null,
      reason: null,
      actor: null,
    },
  ];
  for (const e of events) {
    if (e.action === "donation.trash" || e.action === "donation.restore") {
      out.push({
        at: e.at,
        kind: e.action === "donation.trash" ? "trash" : "restore",
        status: null,
        refundedMinor: null,
        reason: e.reason,
        actor: e.actor,
      });
      continue;
    }
    const after = parse(e.after);
    out.push({
      at: e.at,
      kind: "status",
      status: after.status ?? null,
      refundedMinor: after.refundedMinor ?? null,
      reason: e.reason,
      actor:
        e.actor ??
        (e.action === "donation.webhook_status"
          ? "Payment processor"
          : e.action === "donation.abandon"
            ? "System"
            : null),
    });
  }
  return out;
}

/** The amount-order window of donations.list: 40 gifts per row asked for, at most 5 000. */
export const AMOUNT_WINDOW_FACTOR = 40;
export const AMOUNT_WINDOW_MAX = 5000;

const sorts = {
  date: "d.donated_at",
  amount: "d.amount_minor",
  status: "d.status",
  number: "d.number",
} as const;

export const donationFilters = z.object({
  status: z.optional(enumSet(donationStatuses)),
  campaignId: z.string().optional(),
  campaignItemId: z.string().optional(),
  donorId: z.string().optional(),
  /** Local days of the organization, both inclusive (the shared calendar day, decision 019). */
  from: z.optional(calendarDay),
  to: z.optional(calendarDay),
  minAmountMinor: z.number().int().min(0).optional(),
  maxAmountMinor: z.number().int().min(0).optional(),
  currency: z.optional(currencyCode),
  paymentMethod: z.string().max(30).optional(),
  /** "recurring" is every frequency but one_time (the dashboard's one-time vs recurring split). */
  frequency: z.enum(["one_time", "recurring", "monthly", "quarterly", "annually"]).optional(),
  mode: z.enum(["live", "test"]).optional(),
  source: z.string().max(20).optional(),
  /** Donations of retained or lapsed donors (dashboard.retention's definitions, as of now). */
  segment: z.enum(["retained", "lapsed"]).optional(),
  trashed: z.boolean().default(false),
  q: z.string().trim().max(200).optional(),
});

export function donationWhere(orgId: string, timeZone: string, f: z.infer<typeof donationFilters>): Where {
  const w = where();
  add(w, "d.organization_id = ?", orgId);
  add(w, f.trashed ? "d.trashed_at IS NOT NULL" : "d.trashed_at IS NULL");
  if (f.status?.length) add(w, `d.status IN (${f.status.map(() => "?").join(",")})`, ...f.status);
  if (f.campaignId) add(w, "d.campaign_id = ?", f.campaignId);
  if (f.campaignItemId) add(w, "d.campaign_item_id = ?", f.campaignItemId);
  if (f.donorId) add(w, "d.donor_id = ?", f.donorId);
  // Date filters are calendar days in the organization's time zone.
  if (f.from) add(w, "d.donated_at >= ?", startOfLocalDay(f.from, timeZone));
  if (f.to) add(w, "d.donated_at < ?", startOfLocalDay(addDays(f.to, 1), timeZone));
  if (f.minAmountMinor !== undefined) add(w, "d.amount_minor >= ?", f.minAmountMinor);
  if (f.maxAmountMinor !== undefined) add(w, "d.amount_minor <= ?", f.maxAmountMinor);
  if (f.currency) add(w, "d.currency = ?", f.currency.toUpperCase());
  if (f.paymentMethod) add(w, "d.payment_method = ?", f.paymentMethod);
  if (f.frequency === "recurring") add(w, "d.frequency != 'one_time'");
  else if (f.frequency) add(w, "d.frequency = ?", f.frequency);
  if (f.mode) add(w, "d.mode = ?", f.mode);
  if (f.source) add(w, "d.source = ?", f.source);
  if (f.segment) add(w, segmentSql(f.segment), ...segmentParams(orgId, timeZone));
  if (f.q) {
    const n = Number(f.q.replace(/^#/, ""));
    if (Number.isInteger(n) && n > 0) add(w, "d.number = ?", n);
    else {
      const p = likeEscape(f.q);
      add(
        w,
        "(lower(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')) LIKE ? ESCAPE '\\' OR dn.email LIKE ? ESCAPE '\\' OR d.gateway_transaction_id = ?)",
        p,
        p,
        f.q,
      );
    }
  }
  return w;
}

/**
 * Room left on an item that allows no overfunding for `quantity` more, as a condition of the row
 * write (decision 020): the read-then-write check alone let two concurrent gifts both pass.
 */
const itemRoom = (itemId: string, quantity: number, donationId: string): Guard => ({
  sql: (
    p,
  ) => `NOT EXISTS (SELECT 1 FROM campaign_item i WHERE i.id = ?${p} AND i.allow_overfunding = 0 AND i.quantity_needed IS NOT NULL
      AND COALESCE((SELECT SUM(x.item_quantity) FROM donation x WHERE x.campaign_item_id = i.id AND x.id != ?${p + 2} AND ${COUNTED_SQL("x")}), 0) + ?${p + 1} > i.quantity_needed)`,
  args: [itemId, quantity, donationId],
});

/** The refusal of a write that `itemRoom` stopped, from a fresh read (null: there is room). */
async function overfunding(db: D1Database, itemId: string, quantity: number, donationId: string) {
  const item = await db
    .prepare(
      `SELECT i.quantity_needed AS needed, i.allow_overfunding AS allowed,
              COALESCE((SELECT SUM(x.item_quantity) FROM donation x WHERE x.campaign_item_id = i.id AND x.id != ?2 AND ${COUNTED_SQL("x")}), 0) AS funded
         FROM campaign_item i WHERE i.id = ?1`,
    )
    .bind(itemId, donationId)
    .first<{ needed: number | null; allowed: number; funded: number }>();
  if (!item || item.allowed || item.needed === null || item.funded + quantity <= item.needed) return null;
  return `Only ${Math.max(0, item.needed - item.funded)} more of this item are needed`;
}

/** The donor is still its own record (not merged away meanwhile) when the gift is written. */
const donorUnmerged = (donorId: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM donor WHERE id = ?${p} AND merged_into_id IS NULL)`,
  args: [donorId],
});

const CHANGED_MEANWHILE = "The donation changed meanwhile; reload and try again";

const manualInput = z
  .object({
    donorId: z.string().min(1).nullable(),
    campaignId: z.string().min(1).nullable(),
    campaignItemId: z.string().min(1).nullable().optional(),
    itemQuantity: z.number().int().min(0).max(10_000).default(0),
    amountMinor,
    currency: currencyCode,
    paymentMethod: z.enum(["cash", "check", "bank_transfer", "card", "other"]),
    status: z.enum(["pending", "completed"]).default("completed"),
    frequency: z.enum(["one_time", "monthly", "quarterly", "annually"]).default("one_time"),
    donatedAt: giftInstant,
    anonymous: z.boolean().default(false),
    message: z.string().trim().max(1000).optional().nullable(),
    tributeType: z.enum(["in_honor", "in_memory"]).optional().nullable(),
    tributeName: z.string().trim().max(200).optional().nullable(),
    internalNote: z.string().trim().max(2000).optional().nullable(),
    mode: z.enum(["live", "test"]).default("live"),
  })
  .strict();

/** One status change through the one guarded write (decision 020); a lost race answers 409. */
async function applyStatus(
  ctx: DonationActor,
  before: DonationRow,
  status: DonationStatus,
  refunded: number,
  reason: string | undefined,
  action: string,
) {
  const after: DonationRow = { ...before, status, refunded_minor: refunded, updated_at: Date.now() };
  const landed = await writeDonation(ctx, {
    before,
    after,
    audit: {
      action,
      before: { status: before.status, refundedMinor: before.refunded_minor },
      after: { status: after.status, refundedMinor: refunded },
      reason,
    },
  });
  if (!landed) fail("CONFLICT", CHANGED_MEANWHILE);
  return presentDonation(await loadDonation(ctx.env.DB, ctx.org.id, before.id));
}

export const donationsRouter = router({
  list: orgProcedure({ donation: ["view"] })
    .input(
      donationFilters.extend({
        ...pageSchema,
        sort: z.enum(Object.keys(sorts) as [keyof typeof sorts]).default("date"),
      }),
    )
    .query(async ({ ctx, input }) => {
      const db = ctx.env.DB;
      const w = donationWhere(ctx.org.id, ctx.org.timeZone, input);
      const whereSql = w.sql.join(" AND ");
      const offset = checkedOffset(input.page, input.pageSize);
      const dir = input.desc ? "DESC" : "ASC";
      const order = `${sorts[input.sort]} ${dir}, d.id ${dir}`;
      // Filters that donation_totals answers exactly (any other filter needs the rows themselves),
      // and with a date range donation_daily_totals (decision 013).
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
      const rollupTotals = (table: string, days: boolean) => {
        const t = where();
        add(t, "organization_id = ?", ctx.org.id);
        if (days && fromDay) add(t, "day >= ?", fromDay);
        if (days && toDay) add(t, "day <= ?", toDay);
        add(t, "trashed = ?", trashed ? 1 : 0);
        if (status?.length) add(t, `status IN (${status.map(() => "?").join(",")})`, ...status);
        if (currency) add(t, "currency = ?", currency.toUpperCase());
        if (mode) add(t, "mode = ?", mode);
        const counted = "status IN ('completed','partially_refunded') AND mode = 'live' AND trashed = 0";
        return db
          .prepare(
            `SELECT currency, SUM(donation_count) AS count,
                    COALESCE(SUM(CASE WHEN ${counted} THEN donation_count END), 0) AS countedCount,
                    COALESCE(SUM(CASE WHEN ${counted} THEN amount_minor - refunded_minor END), 0) AS countedMinor
               FROM ${table} WHERE ${t.sql.join(" AND ")}
              GROUP BY currency HAVING SUM(donation_count) > 0 ORDER BY currency`,
          )
          .bind(...t.params);
      };
      // Totals of the filtered set per currency: amounts in different currencies are never added.
      let totalsStmt: D1PreparedStatement;
      // The daily rows count only if they were built in the zone this request's days are in.
      let dailyState: D1PreparedStatement | null = null;
      const scanTotals = () => {
        const countFrom = input.q ? "donation d LEFT JOIN donor dn ON dn.id = d.donor_id" : "donation d";
        // "Counted" minus what the filters already imply: SQLite pays per row for every CASE term.
        const counted = countedWithin(input);
        const countedCount =
          counted === null ? "0" : counted === "" ? "COUNT(*)" : `COUNT(CASE WHEN ${counted} THEN 1 END)`;
        const countedMinor =
          counted === null
            ? "0"
            : counted === ""
              ? "COALESCE(SUM(d.amount_minor - d.refunded_minor), 0)"
              : `COALESCE(SUM(CASE WHEN ${counted} THEN d.amount_minor - d.refunded_minor END), 0)`;
        return db
          .prepare(
            `SELECT d.currency, COUNT(*) AS count, ${countedCount} AS countedCount, ${countedMinor} AS countedMinor
               FROM ${countFrom} WHERE ${whereSql} GROUP BY d.currency ORDER BY d.currency`,
          )
          .bind(...w.params);
      };
      if (fromRollup && !dated) totalsStmt = rollupTotals("donation_totals", false);
      else if (fromRollup && daysInRange) {
        totalsStmt = rollupTotals("donation_daily_totals", true);
        dailyState = db
          .prepare("SELECT 1 AS built FROM donation_daily_state WHERE organization_id = ? AND time_zone = ?")
          .bind(ctx.org.id, ctx.org.timeZone);
      } else totalsStmt = scanTotals();
      // The page: without a text search the ids are picked from the covering index first and only
      // those rows are read and joined (a late join), instead of joining every matching row.
      const pageStmt = input.q
        ? db
            .prepare(`SELECT ${SELECT} FROM ${FROM} WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`)
            .bind(...w.params, input.pageSize, offset)
        : db
            .prepare(
              `SELECT ${SELECT} FROM (SELECT d.id FROM donation d WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?) p
                 JOIN donation d ON d.id = p.id LEFT JOIN donor dn ON dn.id = d.donor_id
                 LEFT JOIN campaign c ON c.id = d.campaign_id ORDER BY ${order}`,
            )
            .bind(...w.params, input.pageSize, offset);
      // One status by amount (the "largest gifts" page): read a window of that status's gifts in
      // amount order from donation_org_status_amount_idx and keep those the filters keep. Every
      // gift outside the window sorts after every gift in it, so when the window holds the whole
      // page the page is exact; else (a sparse range) the date-index page below answers.
      const window = Math.min(AMOUNT_WINDOW_MAX, AMOUNT_WINDOW_FACTOR * (offset + input.pageSize));
      const windowed =
        input.sort === "amount" &&
        !input.q &&
        status?.length === 1 &&
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
        ? db
            .prepare(
              `SELECT ${SELECT} FROM (
                 SELECT d.id FROM (
                   SELECT d.id, d.organization_id, d.status, d.amount_minor, d.donated_at, d.trashed_at, d.mode, d.currency
                     FROM donation d INDEXED BY donation_org_status_amount_idx
                    WHERE d.organization_id = ? AND d.status = ? ORDER BY d.amount_minor ${dir}, d.id ${dir} LIMIT ?) d
                  WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?) p
                 JOIN donation d ON d.id = p.id LEFT JOIN donor dn ON dn.id = d.donor_id
                 LEFT JOIN campaign c ON c.id = d.campaign_id ORDER BY ${order}`,
            )
            .bind(ctx.org.id, status[0], window, ...w.params, input.pageSize, offset)
        : null;
      const [rows, totalsRes, state] = await db.batch([
        windowStmt ?? pageStmt,
        totalsStmt,
        ...(dailyState ? [dailyState] : []),
      ]);
      // Not built yet, or built in a zone the organization has left: total from the donations.
      const totals = dailyState && !state?.results.length ? await scanTotals().all() : totalsRes;
      const byCurrency = (totals?.results ?? []) as {
        currency: string;
        count: number;
        countedCount: number;
        countedMinor: number;
      }[];
      const total = byCurrency.reduce((n, t) => n + t.count, 0);
      let pageRows = (rows?.results ?? []) as DonationRow[];
      if (windowStmt && pageRows.length < Math.min(input.pageSize, Math.max(0, total - offset)))
        pageRows = (await pageStmt.all<DonationRow>()).results;
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
    }),

  byId: orgProcedure({ donation: ["view"] })
    .input(z.object({ id: z.string().min(1) }))
    .query(async ({ ctx, input }) => {
      const d = await loadDonation(ctx.env.DB, ctx.org.id, input.id);
      const { results } = await ctx.env.DB.prepare(
        `SELECT a.action, a.before, a.after, a.reason, a.at, u.name AS actor FROM audit_event a LEFT JOIN user u ON u.id = a.actor_id
          WHERE a.organization_id = ? AND a.entity_type = 'donation' AND a.entity_id = ? AND a.action IN (${TIMELINE_ACTIONS.map(() => "?").join(",")})
          ORDER BY a.at, a.rowid LIMIT 200`,
      )
        .bind(ctx.org.id, d.id, ...TIMELINE_ACTIONS)
        .all<{
          action: string;
          before: string | null;
          after: string | null;
          reason: string | null;
          at: number;
          actor: string | null;
        }>();
      return { ...presentDonation(d), timeline: statusTimeline(d, results) };
    }),

  /** Manual/offline gifts (cash, check, bank transfer) by those with donation:create. */
  create: orgProcedure({ donation: ["create"] })
    .input(manualInput)
    .mutation(async ({ ctx, input }) => {
      const db = ctx.env.DB;
      // A merged donor's id resolves to the donor it was merged into (as donors.byId does), so a
      // gift never lands on a merged record; the write checks it is still unmerged (decision 020).
      const donor = input.donorId
        ? await db
            .prepare(
              "SELECT COALESCE(merged_into_id, id) AS id FROM donor WHERE id = ? AND organization_id = ?",
            )
            .bind(input.donorId, ctx.org.id)
            .first<{ id: string }>()
        : null;
      if (input.donorId && !donor) fail("NOT_FOUND", "Donor not found");
      if (input.campaignId) {
        const c = await db
          .prepare("SELECT currency, status FROM campaign WHERE id = ? AND organization_id = ?")
          .bind(input.campaignId, ctx.org.id)
          .first<{ currency: string; status: string }>();
        if (!c) fail("NOT_FOUND", "Campaign not found");
        if (c.currency !== input.currency)
          fail("BAD_REQUEST", `This campaign collects ${c.currency}`, { field: "currency" });
      }
      if (input.campaignItemId) {
        const item = await db
          .prepare(
            `SELECT i.active, i.archived_at, i.quantity_needed, i.allow_overfunding,
                    COALESCE((SELECT SUM(d.item_quantity) FROM donation d WHERE d.campaign_item_id = i.id AND ${COUNTED_SQL("d")}), 0) AS funded
               FROM campaign_item i WHERE i.id = ? AND i.campaign_id = ? AND i.organization_id = ?`,
          )
          .bind(input.campaignItemId, input.campaignId, ctx.org.id)
          .first<{
            active: number;
            archived_at: number | null;
            quantity_needed: number | null;
            allow_overfunding: number;
            funded: number;
          }>();
        if (!item) fail("NOT_FOUND", "Item not found");
        if (!item.active || item.archived_at)
          fail("UNPROCESSABLE_CONTENT", "This item no longer takes gifts", { field: "campaignItemId" });
        // Overfunding rule: an item that does not allow it refuses quantities beyond what it needs.
        const qty = Math.max(1, input.itemQuantity);
        if (
          !item.allow_overfunding &&
          item.quantity_needed !== null &&
          item.funded + qty > item.quantity_needed
        ) {
          fail(
            "UNPROCESSABLE_CONTENT",
            `Only ${Math.max(0, item.quantity_needed - item.funded)} more of this item are needed`,
            { field: "itemQuantity" },
          );
        }
      }
      const id = generateId();
      const now = Date.now();
      const row: DonationRow = {
        id,
        organization_id: ctx.org.id,
        number: 0,
        donor_id: donor?.id ?? null,
        campaign_id: input.campaignId,
        campaign_item_id: input.campaignItemId ?? null,
        item_quantity: input.campaignItemId ? Math.max(1, input.itemQuantity) : 0,
        amount_minor: input.amountMinor,
        fee_covered_minor: 0,
        processing_fee_minor: 0,
        platform_fee_minor: 0,
        refunded_minor: 0,
        currency: input.currency,
        status: input.status,
        frequency: input.frequency,
        payment_method: input.paymentMethod,
        gateway: null,
        gateway_transaction_id: null,
        source: "manual",
        mode: input.mode,
        anonymous: input.anonymous ? 1 : 0,
        message: input.message ?? null,
        tribute_type: input.tributeType ?? null,
        tribute_name: input.tributeName ?? null,
        internal_note: input.internalNote ?? null,
        donated_at: input.donatedAt,
        trashed_at: null,
        created_at: now,
        updated_at: now,
        created_by: ctx.user.id,
        change_token: null,
      };
      const landed = await writeDonation(ctx, {
        before: null,
        after: row,
        audit: { action: "donation.create", after: input },
        requires: allGuards(
          row.donor_id && donorUnmerged(row.donor_id),
          row.campaign_item_id && itemRoom(row.campaign_item_id, row.item_quantity, id),
        ),
      });
      if (!landed) {
        // Another gift took the item's last places, or the donor was merged, since the checks above.
        const short =
          row.campaign_item_id && (await overfunding(db, row.campaign_item_id, row.item_quantity, id));
        if (short) fail("UNPROCESSABLE_CONTENT", short, { field: "itemQuantity" });
        fail("CONFLICT", "The donor was merged meanwhile; reload and try again", { field: "donorId" });
      }
      return presentDonation(await loadDonation(db, ctx.org.id, id));
    }),

  update: orgProcedure({ donation: ["update"] })
    .input(
      z.object({
        id: z.string().min(1),
        data: z
          .object({
            message: z.string().trim().max(1000).nullable().optional(),
            internalNote: z.string().trim().max(2000).nullable().optional(),
            tributeType: z.enum(["in_honor", "in_memory"]).nullable().optional(),
            tributeName: z.string().trim().max(200).nullable().optional(),
            anonymous: z.boolean().optional(),
            campaignId: z.string().min(1).nullable().optional(),
            /** An item of the (new) campaign, or null; changing the campaign clears it unless given. */
            campaignItemId: z.string().min(1).nullable().optional(),
            itemQuantity: z.number().int().min(1).max(10_000).optional(),
            amountMinor: z.optional(amountMinor),
          })
          .strict(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const db = ctx.env.DB;
      const before = await loadDonation(db, ctx.org.id, input.id);
      const d = input.data;
      if (d.amountMinor !== undefined && before.source !== "manual")
        fail("UNPROCESSABLE_CONTENT", "Only manual entries can change their amount", {
          field: "amountMinor",
        });
      if (d.amountMinor !== undefined && d.amountMinor < before.refunded_minor)
        fail("BAD_REQUEST", "Below the amount already refunded", { field: "amountMinor" });
      if (d.campaignId) {
        const c = await db
          .prepare("SELECT currency FROM campaign WHERE id = ? AND organization_id = ?")
          .bind(d.campaignId, ctx.org.id)
          .first<{ currency: string }>();
        if (!c) fail("NOT_FOUND", "Campaign not found");
        if (c.currency !== before.currency)
          fail("BAD_REQUEST", `This campaign collects ${c.currency}`, { field: "campaignId" });
      }
      const campaignAfter = d.campaignId !== undefined ? d.campaignId : before.campaign_id;
      const itemAfter =
        d.campaignItemId !== undefined
          ? d.campaignItemId
          : campaignAfter !== before.campaign_id
            ? null
            : before.campaign_item_id;
      const quantityAfter = itemAfter ? (d.itemQuantity ?? Math.max(1, before.item_quantity)) : 0;
      if (itemAfter) {
        if (!campaignAfter) fail("BAD_REQUEST", "An item needs a campaign", { field: "campaignItemId" });
        const item = await db
          .prepare(
            `SELECT i.quantity_needed, i.allow_overfunding,
                    COALESCE((SELECT SUM(x.item_quantity) FROM donation x WHERE x.campaign_item_id = i.id AND x.id != ?4 AND ${COUNTED_SQL("x")}), 0) AS funded
               FROM campaign_item i WHERE i.id = ?1 AND i.campaign_id = ?2 AND i.organization_id = ?3`,
          )
          .bind(itemAfter, campaignAfter, ctx.org.id, before.id)
          .first<{ quantity_needed: number | null; allow_overfunding: number; funded: number }>();
        if (!item) fail("NOT_FOUND", "Item not found");
        const counts = isCounted({ status: before.status, mode: before.mode, trashedAt: before.trashed_at });
        if (
          counts &&
          !item.allow_overfunding &&
          item.quantity_needed !== null &&
          item.funded + quantityAfter > item.quantity_needed
        )
          fail(
            "UNPROCESSABLE_CONTENT",
            `Only ${Math.max(0, item.quantity_needed - item.funded)} more of this item are needed`,
            { field: "itemQuantity" },
          );
      }
      const after: DonationRow = {
        ...before,
        message: d.message !== undefined ? d.message : before.message,
        internal_note: d.internalNote !== undefined ? d.internalNote : before.internal_note,
        tribute_type: d.tributeType !== undefined ? d.tributeType : before.tribute_type,
        tribute_name: d.tributeName !== undefined ? d.tributeName : before.tribute_name,
        anonymous: d.anonymous !== undefined ? (d.anonymous ? 1 : 0) : before.anonymous,
        campaign_id: campaignAfter,
        campaign_item_id: itemAfter,
        item_quantity: quantityAfter,
        amount_minor: d.amountMinor ?? before.amount_minor,
        updated_at: Date.now(),
      };
      // The item check above, again inside the write: two edits could both pass it (decision 020).
      const counted = isCounted({ status: before.status, mode: before.mode, trashedAt: before.trashed_at });
      const requires = itemAfter && counted ? itemRoom(itemAfter, quantityAfter, before.id) : undefined;
      const landed = await writeDonation(ctx, {
        before,
        after,
        audit: { action: "donation.update", before: presentDonation(before), after: d },
        requires,
      });
      if (!landed) {
        const short = itemAfter && requires && (await overfunding(db, itemAfter, quantityAfter, before.id));
        if (short) fail("UNPROCESSABLE_CONTENT", short, { field: "itemQuantity" });
        fail("CONFLICT", CHANGED_MEANWHILE);
      }
      return presentDonation(await loadDonation(db, ctx.org.id, before.id));
    }),

  /** The status machine of DESIGN §4; refused transitions answer 422 with the allowed targets. */
  updateStatus: orgProcedure({ donation: ["update"] })
    .input(
      z.object({
        id: z.string().min(1),
        status: z.enum(donationStatuses),
        refundAmountMinor: z.number().int().positive().optional(),
        reason: z.string().trim().max(500).optional(),
        /**
         * Platform admins only: set any status, also out of a terminal one (domain.md §2.5
         * "correction"), with a mandatory reason. The refunded amount follows the new status: all
         * of it for refunded, `refundAmountMinor` (the total) for partially refunded, else none.
         */
        correction: z.boolean().default(false),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const db = ctx.env.DB;
      const before = await loadDonation(db, ctx.org.id, input.id);
      if (before.trashed_at)
        fail("UNPROCESSABLE_CONTENT", "Restore the donation from the trash first", { allowed: [] });
      if (input.correction) {
        if (!ctx.org.isPlatformAdmin) fail("FORBIDDEN", "Only platform admins can correct a status");
        if (!input.reason) fail("BAD_REQUEST", "Give a reason", { field: "reason" });
        if (input.status === before.status)
          fail("BAD_REQUEST", "The donation already has this status", { field: "status" });
        let refunded = 0;
        if (input.status === "refunded") refunded = before.amount_minor;
        if (input.status === "partially_refunded") {
          const total = input.refundAmountMinor;
          if (!total || total >= before.amount_minor)
            fail("BAD_REQUEST", "Enter the total refunded, less than the amount", {
              field: "refundAmountMinor",
            });
          refunded = total;
        }
        return applyStatus(ctx, before, input.status, refunded, input.reason, "donation.correction");
      }
      const allowed = allowedDonationTargets(before.status, before.source);
      if (!allowed.includes(input.status)) {
        fail(
          "UNPROCESSABLE_CONTENT",
          `A ${before.status.replace("_", " ")} donation cannot become ${input.status.replace("_", " ")}`,
          { from: before.status, allowed },
        );
      }
      if (["refunded", "partially_refunded", "cancelled"].includes(input.status) && !input.reason) {
        fail("BAD_REQUEST", "Give a reason", { field: "reason" });
      }
      let refunded = before.refunded_minor;
      if (input.status === "refunded") refunded = before.amount_minor;
      if (input.status === "partially_refunded") {
        const amount = input.refundAmountMinor;
        if (!amount) fail("BAD_REQUEST", "Enter the amount refunded", { field: "refundAmountMinor" });
        if (refunded + amount >= before.amount_minor)
          fail("BAD_REQUEST", "That refunds everything: choose Refund instead", {
            field: "refundAmountMinor",
          });
        refunded += amount;
      }
      return applyStatus(ctx, before, input.status, refunded, input.reason, "donation.status");
    }),

  /**
   * Moves to the trash (restorable); platform admins may delete permanently. Trashing a gift that
   * is already in the trash succeeds without a second change, also when another request trashed
   * it a moment ago (decision 020); a purge that finds the gift gone answers NOT_FOUND, as it would
   * a moment later.
   */
  delete: orgProcedure({ donation: ["delete"] })
    .input(z.object({ id: z.string().min(1), permanent: z.boolean().default(false) }))
    .mutation(async ({ ctx, input }) => {
      const db = ctx.env.DB;
      const before = await loadDonation(db, ctx.org.id, input.id);
      if (input.permanent) {
        if (!ctx.org.isPlatformAdmin)
          fail("FORBIDDEN", "Only platform admins can delete donations permanently");
        const landed = await writeDonation(ctx, {
          before,
          after: null,
          audit: { action: "donation.purge", before: presentDonation(before) },
        });
        if (!landed) {
          await loadDonation(db, ctx.org.id, before.id);
          fail("CONFLICT", CHANGED_MEANWHILE);
        }
        return { id: before.id };
      }
      if (before.trashed_at) return { id: before.id };
      const now = Date.now();
      const after = { ...before, trashed_at: now, updated_at: now };
      const landed = await writeDonation(ctx, { before, after, audit: { action: "donation.trash" } });
      if (!landed && !(await loadDonation(db, ctx.org.id, before.id)).trashed_at)
        fail("CONFLICT", CHANGED_MEANWHILE);
      return { id: before.id };
    }),

  /** Restoring a gift that is not in the trash succeeds without a change (see delete). */
  restore: orgProcedure({ donation: ["delete"] })
    .input(z.object({ id: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      const db = ctx.env.DB;
      const before = await loadDonation(db, ctx.org.id, input.id);
      if (!before.trashed_at) return presentDonation(before);
      const after = { ...before, trashed_at: null, updated_at: Date.now() };
      const landed = await writeDonation(ctx, { before, after, audit: { action: "donation.restore" } });
      const now = await loadDonation(db, ctx.org.id, before.id);
      if (!landed && now.trashed_at) fail("CONFLICT", CHANGED_MEANWHILE);
      return presentDonation(now);
    }),

  history: orgProcedure({ donation: ["view"] })
    .input(z.object({ entityType: z.enum(["donation", "donor", "campaign"]), entityId: z.string().min(1) }))
    .query(async ({ ctx, input }) => {
      const { results } = await ctx.env.DB.prepare(
        `SELECT a.id, a.action, a.before, a.after, a.reason, a.at, u.name AS actor, iu.name AS impersonator
           FROM audit_event a LEFT JOIN user u ON u.id = a.actor_id LEFT JOIN user iu ON iu.id = a.impersonator_id
          WHERE a.organization_id = ? AND a.entity_type = ? AND a.entity_id = ? ORDER BY a.at DESC LIMIT 100`,
      )
        .bind(ctx.org.id, input.entityType, input.entityId)
        .all<{
          id: string;
          action: string;
          before: string | null;
          after: string | null;
          reason: string | null;
          at: number;
          actor: string | null;
          impersonator: string | null;
        }>();
      return results;
    }),
});

/* ------------------------------------------------------------------ dashboard */

/**
 * The two retention windows, as whole local days of the organization (so the dashboard's tiles and
 * the /donations list they link to draw the same line):
 *   last 12 months  = the 365 local days ending today, [today − 364, today];
 *   previous 12     = the 365 local days before that,  [today − 729, today − 365].
 * Retained donors gave a counted gift in the previous 12 months and again in the last 12; lapsed
 * donors gave in the previous 12 and not since (LYBUNT: "last year but unfortunately not this").
 * Retention rate = retained / (retained + lapsed). Refunded and test gifts never count (domain.md §4.1).
 */
export function retentionWindows(timeZone: string, now = Date.now()) {
  const today = localDay(now, timeZone);
  const recentFrom = addDays(today, -364);
  const priorFrom = addDays(today, -729);
  const priorTo = addDays(today, -365);
  return {
    today,
    recentFrom,
    priorFrom,
    priorTo,
    recentFromMs: startOfLocalDay(recentFrom, timeZone),
    priorFromMs: startOfLocalDay(priorFrom, timeZone),
  };
}

/**
 * SQL: the row's donor is in the segment as of now (binds: org id, priorFromMs, recentFromMs,
 * recentFromMs — see `segmentParams`).
 */
export function segmentSql(segment: "retained" | "lapsed", alias = "d") {
  return `${alias}.donor_id IN (SELECT p.donor_id FROM donation p WHERE p.organization_id = ? AND ${COUNTED_SQL("p")}
      AND p.donor_id IS NOT NULL AND p.donated_at >= ? AND p.donated_at < ?
      AND ${segment === "lapsed" ? "NOT " : ""}EXISTS (SELECT 1 FROM donation y WHERE y.donor_id = p.donor_id AND ${COUNTED_SQL("y")} AND y.donated_at >= ?))`;
}

export function segmentParams(orgId: string, timeZone: string, now = Date.now()) {
  const w = retentionWindows(timeZone, now);
  return [orgId, w.priorFromMs, w.recentFromMs, w.recentFromMs];
}

const currencyInput = z.optional(currencyCode);

async function retention(ctx: { env: Env; org: { id: string } }, w: ReturnType<typeof retentionWindows>) {
  const ret = await ctx.env.DB.prepare(
    `SELECT COUNT(*) AS base, SUM(CASE WHEN EXISTS (SELECT 1 FROM donation y WHERE y.donor_id = x.donor_id AND ${COUNTED_SQL("y")} AND y.donated_at >= ?2) THEN 1 ELSE 0 END) AS retained
         FROM (SELECT DISTINCT d.donor_id FROM donation d WHERE d.organization_id = ?1 AND ${COUNTED_SQL("d")} AND d.donor_id IS NOT NULL AND d.donated_at >= ?3 AND d.donated_at < ?2) x`,
  )
    .bind(ctx.org.id, w.recentFromMs, w.priorFromMs)
    .first<{ base: number; retained: number | null }>();
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

type OrgCtx = { env: Env; org: { id: string; timeZone: string; defaultCurrency: string } };

async function summary(ctx: OrgCtx, input: { days: number; currency?: string }) {
  const db = ctx.env.DB;
  const org = ctx.org;
  const today = localDay(Date.now(), org.timeZone);
  const from = input.days > 0 ? addDays(today, -(input.days - 1)) : "0000-01-01";
  const prevFrom = input.days > 0 ? addDays(today, -(2 * input.days - 1)) : null;
  const currency = input.currency ?? org.defaultCurrency;
  const fromMs = input.days > 0 ? startOfLocalDay(from, org.timeZone) : 0;
  const prevMs = prevFrom ? startOfLocalDay(prevFrom, org.timeZone) : 0;
  const counted = `d.organization_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")} AND d.donated_at >= ?3`;
  // "All time" reads other indexes and rollups than a period (drizzle/0008, docs/performance.md).
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
  ] = await db.batch([
    db
      .prepare(
        "SELECT day, raised_minor AS raised, donation_count AS count FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND currency = ? AND day >= ? AND donation_count != 0 ORDER BY day",
      )
      .bind(org.id, currency, from),
    db
      .prepare(
        "SELECT COALESCE(SUM(raised_minor),0) AS raised, COALESCE(SUM(donation_count),0) AS count FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND currency = ? AND day >= ? AND day < ?",
      )
      .bind(org.id, currency, prevFrom ?? "9999", from),
    allTime
      ? db
          .prepare(
            // All time has no first day to seek: the count and sum come from org_daily and the
            // median is the middle entry of donation_counted_net_idx (drizzle/0008).
            `WITH t AS (SELECT COALESCE(SUM(donation_count), 0) AS n, COALESCE(SUM(raised_minor), 0) AS raised
                          FROM org_daily WHERE organization_id = ?1 AND campaign_id = '*' AND currency = ?2)
             SELECT t.n, t.raised,
                    (SELECT AVG(a) FROM (SELECT d.amount_minor - d.refunded_minor AS a FROM donation d
                                          WHERE d.organization_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")}
                                          ORDER BY d.amount_minor - d.refunded_minor
                                          LIMIT 2 - (SELECT n FROM t) % 2 OFFSET (SELECT (n - 1) / 2 FROM t))) AS median
               FROM t`,
          )
          .bind(org.id, currency)
      : db
          .prepare(
            // Aggregates and the median in SQL: the Worker never receives the period's rows
            // (at 1M donations that result alone failed the request).
            `WITH x AS (SELECT d.amount_minor - d.refunded_minor AS a, d.donor_id FROM donation d WHERE ${counted})
               SELECT (SELECT COUNT(*) FROM x) AS n, (SELECT COALESCE(SUM(a), 0) FROM x) AS raised,
                      (SELECT COUNT(DISTINCT donor_id) FROM x) AS donors,
                      (SELECT AVG(a) FROM (SELECT a FROM x ORDER BY a LIMIT 2 - (SELECT COUNT(*) FROM x) % 2 OFFSET (SELECT (COUNT(*) - 1) / 2 FROM x))) AS median`,
          )
          .bind(org.id, currency, fromMs),
    db
      .prepare(
        `SELECT COUNT(DISTINCT d.donor_id) AS n FROM donation d WHERE d.organization_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")} AND d.donated_at >= ?3 AND d.donated_at < ?4`,
      )
      .bind(org.id, currency, prevMs, fromMs),
    allTime
      ? db
          .prepare(
            // All time by status is exactly what donation_totals keeps (drizzle/0005).
            "SELECT status, SUM(donation_count) AS count, SUM(amount_minor) AS amount FROM donation_totals WHERE organization_id = ?1 AND currency = ?2 AND mode = 'live' AND trashed = 0 GROUP BY status HAVING SUM(donation_count) > 0 ORDER BY count DESC",
          )
          .bind(org.id, currency)
      : db
          .prepare(
            "SELECT d.status, COUNT(*) AS count, SUM(d.amount_minor) AS amount FROM donation d WHERE d.organization_id = ?1 AND d.currency = ?2 AND d.trashed_at IS NULL AND d.mode = 'live' AND d.donated_at >= ?3 GROUP BY d.status ORDER BY count DESC",
          )
          .bind(org.id, currency, fromMs),
    db
      .prepare(
        `SELECT d.payment_method AS method, COUNT(*) AS count, SUM(d.amount_minor - d.refunded_minor) AS amount FROM donation d WHERE ${counted} GROUP BY d.payment_method ORDER BY amount DESC`,
      )
      .bind(org.id, currency, fromMs),
    db
      .prepare(
        "SELECT c.id, c.title, o.currency, SUM(o.raised_minor) AS raised, SUM(o.donation_count) AS count FROM org_daily o JOIN campaign c ON c.id = o.campaign_id WHERE o.organization_id = ? AND o.currency = ? AND o.day >= ? GROUP BY c.id HAVING SUM(o.donation_count) > 0 ORDER BY raised DESC LIMIT 5",
      )
      .bind(org.id, currency, from),
    db
      .prepare(
        // Grouped on the donation side first (all time streams donation_counted_donor_idx in donor
        // order), then only the five donors are read.
        `SELECT dn.id, COALESCE(NULLIF(TRIM(COALESCE(dn.first_name,'') || ' ' || COALESCE(dn.last_name,'')), ''), dn.company, 'Anonymized') AS name, dn.company, t.total, t.gifts
           FROM (SELECT d.donor_id, SUM(d.amount_minor - d.refunded_minor) AS total, COUNT(*) AS gifts FROM donation d
                  WHERE ${counted} AND d.donor_id IS NOT NULL GROUP BY d.donor_id ORDER BY total DESC, d.donor_id LIMIT 5) t
           JOIN donor dn ON dn.id = t.donor_id ORDER BY t.total DESC, t.donor_id`,
      )
      .bind(org.id, currency, fromMs),
    db
      .prepare(
        `SELECT ${SELECT} FROM ${FROM} WHERE d.organization_id = ? AND d.trashed_at IS NULL ORDER BY d.donated_at DESC LIMIT 8`,
      )
      .bind(org.id),
    allTime
      ? db
          .prepare(
            // One pass over donation_counted_donor_idx in donor order (no sort of every gift):
            // per donor, then summed; gifts without a donor count but are no donor.
            `SELECT COUNT(donor_id) AS donors,
                    COALESCE(SUM(otc), 0) AS otCount, COALESCE(SUM(ota), 0) AS otAmount, COUNT(CASE WHEN otc > 0 THEN donor_id END) AS otDonors,
                    COALESCE(SUM(rcc), 0) AS rcCount, COALESCE(SUM(rca), 0) AS rcAmount, COUNT(CASE WHEN rcc > 0 THEN donor_id END) AS rcDonors
               FROM (SELECT d.donor_id,
                            SUM(d.frequency = 'one_time') AS otc,
                            SUM(CASE WHEN d.frequency = 'one_time' THEN d.amount_minor - d.refunded_minor ELSE 0 END) AS ota,
                            SUM(d.frequency != 'one_time') AS rcc,
                            SUM(CASE WHEN d.frequency != 'one_time' THEN d.amount_minor - d.refunded_minor ELSE 0 END) AS rca
                       FROM donation d WHERE d.organization_id = ?1 AND d.currency = ?2 AND ${COUNTED_SQL("d")}
                      GROUP BY d.donor_id)`,
          )
          .bind(org.id, currency)
      : db
          .prepare(
            `SELECT CASE WHEN d.frequency = 'one_time' THEN 'one_time' ELSE 'recurring' END AS kind, COUNT(*) AS count,
                    SUM(d.amount_minor - d.refunded_minor) AS amount, COUNT(DISTINCT d.donor_id) AS donors
               FROM donation d WHERE ${counted} GROUP BY kind`,
          )
          .bind(org.id, currency, fromMs),
    db
      .prepare(
        // Refunds by the gift's date (the refund itself carries no date of its own).
        "SELECT COUNT(*) AS count, COALESCE(SUM(d.refunded_minor), 0) AS amount FROM donation d WHERE d.organization_id = ?1 AND d.currency = ?2 AND d.mode = 'live' AND d.trashed_at IS NULL AND d.refunded_minor > 0 AND d.donated_at >= ?3",
      )
      .bind(org.id, currency, fromMs),
    db
      .prepare(
        "SELECT DISTINCT currency FROM org_daily WHERE organization_id = ? AND campaign_id = '*' AND donation_count > 0",
      )
      .bind(org.id),
  ]);
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
    recent: ((recent?.results ?? []) as DonationRow[]).map(presentDonation),
  };
}

export const dashboardRouter = router({
  /**
   * The dashboard in one currency (never sums across currencies): the organization's default
   * unless `currency` is given; `currencies` lists those with counted gifts. "Counted" is the one
   * definition of DESIGN §4 (COUNTED_SQL). The period is the last `days` local days including
   * today (0 = all time) and its change is against the `days` local days before it.
   */
  summary: orgProcedure({ donation: ["view"] })
    .input(z.object({ days: z.number().int().min(0).max(3650).default(30), currency: currencyInput }))
    .query(({ ctx, input }) => {
      const today = localDay(Date.now(), ctx.org.timeZone);
      const currency = input.currency ?? ctx.org.defaultCurrency;
      return cachedAnalytics(ctx, ctx.org, "summary", [today, input.days, currency], () =>
        summary(ctx, input),
      );
    }),

  /**
   * Retention and lapsed donors over the windows of `retentionWindows` (see there for the exact
   * definitions). It reads two years of gifts, so it has its own procedure and the dashboard's
   * tiles and chart never wait for it (docs/performance.md). Donor counts span currencies: a
   * donor is retained whatever currency they gave in.
   */
  retention: orgProcedure({ donation: ["view"] }).query(({ ctx }) => {
    const w = retentionWindows(ctx.org.timeZone);
    return cachedAnalytics(ctx, ctx.org, "retention", [w.today], () => retention(ctx, w));
  }),

  /**
   * Platform admins: every organization at once, per currency (never summed across currencies).
   * Days are each organization's own local days (org_daily), the window the last `days` UTC days.
   */
  platform: adminProcedure({ user: ["list"] })
    .input(z.object({ days: z.number().int().min(0).max(3650).default(30) }))
    .query(async ({ ctx, input }) => {
      const db = ctx.env.DB;
      const today = localDay(Date.now(), "UTC");
      const from = input.days > 0 ? addDays(today, -(input.days - 1)) : "0000-01-01";
      const [totals, orgs] = await db.batch([
        db
          .prepare(
            "SELECT currency, SUM(raised_minor) AS raised, SUM(donation_count) AS count FROM org_daily WHERE campaign_id = '*' AND day >= ? GROUP BY currency HAVING SUM(donation_count) > 0 ORDER BY raised DESC",
          )
          .bind(from),
        db
          .prepare(
            `SELECT o.id, o.name, od.currency, SUM(od.raised_minor) AS raised, SUM(od.donation_count) AS count
               FROM org_daily od JOIN organization o ON o.id = od.organization_id
              WHERE od.campaign_id = '*' AND od.day >= ? GROUP BY o.id, od.currency HAVING SUM(od.donation_count) > 0
              ORDER BY raised DESC LIMIT 50`,
          )
          .bind(from),
      ]);
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
    }),
});

export { donationStatuses };
