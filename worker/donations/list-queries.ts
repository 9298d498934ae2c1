/**
 * The SQL of donations.list and of the export's filters (docs/performance.md budgets both: the
 * statements are as they were tuned, decisions 011 and 013). Which statement answers a request is
 * the list service's rule (`list.ts`).
 */
import type { FrequencyFilter } from "@core/labels";
import { countedWithin, type DonationStatus } from "@core/status";
import { addDays, startOfLocalDay } from "@core/time";
import { segmentParams, segmentSql } from "../analytics/retention";
import type { Database } from "../db/databases";
import { donorTextMatch } from "../donors/queries";
import { add, type Where, where } from "../lib/list";
import type { DonationFilters, DonationSort } from "./filters";
import { SELECT } from "./queries";

/** The column each sort key orders by (the input schema takes only these keys). */
export const SORT_COLUMNS: Record<DonationSort, string> = {
  date: "d.donated_at",
  amount: "d.amount_minor",
  status: "d.status",
  number: "d.number",
};

/**
 * A frequency filter on gift `a` (the /donations list's, the reports'): "recurring" is every
 * frequency but one_time, the dashboard's one-time vs recurring split; `bind` names the value.
 */
export function frequencySql(a: string, f: FrequencyFilter, bind: (value: string) => string): string {
  return f === "recurring" ? `${a}.frequency != 'one_time'` : `${a}.frequency = ${bind(f)}`;
}

/** A search for a gift by its number ("1234" or "#1234"): the number, else null. */
const searchedNumber = (q: string) => {
  const n = Number(q.replace(/^#/, ""));
  return Number.isInteger(n) && n > 0 ? n : null;
};

/**
 * The WHERE of the filtered set (alias d). `byDonor`: a text search reads the searched donors'
 * gifts through donation_donor_idx (and a transaction id through donation_gateway_tx_unique), a
 * MULTI-INDEX OR, instead of walking every gift of the organization in date order and testing
 * its donor: "smith" at 1 M gifts, 5.1 s → 147 ms over HTTP (decision 040). For the list and its
 * "all matching" snapshot, which count or sort the whole set; the export walks the dates in
 * keyset pages and keeps that path.
 */
export function donationWhere(
  orgId: string,
  timeZone: string,
  f: DonationFilters,
  { byDonor = false }: { byDonor?: boolean } = {},
): Where {
  const w = where();
  const textSearch = !!f.q && searchedNumber(f.q) === null;
  // An item's gifts are few among the organization's and its campaign's: they are read through
  // donation_item_idx and sorted, instead of walking the organization's (or the campaign's) date
  // index until a page of them turns up (an item of 1 359 gifts at 1 M: 164 ms that way, 2.5 ms
  // this one). The unary + keeps SQLite off those indexes; the conditions are unchanged.
  const byItem = f.campaignItemId ? "+" : "";
  add(w, `${byItem || (byDonor && textSearch) ? "+" : ""}d.organization_id = ?`, orgId);
  add(w, f.trashed ? "d.trashed_at IS NOT NULL" : "d.trashed_at IS NULL");
  if (f.status?.length) add(w, `d.status IN (${f.status.map(() => "?").join(",")})`, ...f.status);
  if (f.campaignId) add(w, `${byItem}d.campaign_id = ?`, f.campaignId);
  if (f.campaignItemId) add(w, "d.campaign_item_id = ?", f.campaignItemId);
  if (f.donorId) add(w, "d.donor_id = ?", f.donorId);
  // Date filters are calendar days in the organization's time zone.
  if (f.from) add(w, "d.donated_at >= ?", startOfLocalDay(f.from, timeZone));
  if (f.to) add(w, "d.donated_at < ?", startOfLocalDay(addDays(f.to, 1), timeZone));
  if (f.minAmountMinor !== undefined) add(w, "d.amount_minor >= ?", f.minAmountMinor);
  if (f.maxAmountMinor !== undefined) add(w, "d.amount_minor <= ?", f.maxAmountMinor);
  if (f.currency) add(w, "d.currency = ?", f.currency.toUpperCase());
  if (f.paymentMethod) add(w, "d.payment_method = ?", f.paymentMethod);
  if (f.frequency) {
    const params: string[] = [];
    const sql = frequencySql("d", f.frequency, (value) => {
      params.push(value);
      return "?";
    });
    add(w, sql, ...params);
  }
  if (f.mode) add(w, "d.mode = ?", f.mode);
  if (f.source) add(w, "d.source = ?", f.source);
  if (f.importId) add(w, "d.import_id = ?", f.importId);
  if (f.segment) add(w, segmentSql(f.segment), ...segmentParams(orgId, timeZone));
  if (f.q) {
    const n = searchedNumber(f.q);
    if (n !== null) add(w, "d.number = ?", n);
    else {
      // The donors the donors list would find (donorTextMatch), or the processor's transaction id.
      const m = donorTextMatch("s", f.q);
      add(
        w,
        `(d.donor_id IN (SELECT s.id FROM donor s WHERE s.organization_id = ? AND ${m.sql})
          OR (d.organization_id = ? AND d.gateway_transaction_id = ?))`,
        orgId,
        ...m.params,
        orgId,
        f.q,
      );
    }
  }
  return w;
}

/** One currency's line of the list's totals. */
export interface CurrencyTotals {
  currency: string;
  count: number;
  countedCount: number;
  countedMinor: number;
}

/**
 * Totals per currency from a rollup: donation_totals (`days` false) or donation_daily_totals over
 * the local days [fromDay, toDay] (decision 013). Only for filters the rollup keys answer exactly.
 */
export function rollupTotals(
  db: Database,
  table: "donation_totals" | "donation_daily_totals",
  days: boolean,
  f: {
    orgId: string;
    fromDay?: string;
    toDay?: string;
    trashed: boolean;
    status?: readonly string[];
    currency?: string;
    mode?: string;
  },
) {
  const t = where();
  add(t, "organization_id = ?", f.orgId);
  if (days && f.fromDay) add(t, "day >= ?", f.fromDay);
  if (days && f.toDay) add(t, "day <= ?", f.toDay);
  add(t, "trashed = ?", f.trashed ? 1 : 0);
  if (f.status?.length) add(t, `status IN (${f.status.map(() => "?").join(",")})`, ...f.status);
  if (f.currency) add(t, "currency = ?", f.currency.toUpperCase());
  if (f.mode) add(t, "mode = ?", f.mode);
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
}

/** Totals per currency counted from the donations themselves (any filter). */
export function scanTotals(db: Database, input: DonationFilters, w: Where) {
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
               FROM donation d WHERE ${w.sql.join(" AND ")} GROUP BY d.currency ORDER BY d.currency`,
    )
    .bind(...w.params);
}

/** A row when donation_daily_totals is built in `timeZone` (else the list totals from the donations). */
export function dailyTotalsBuilt(db: Database, orgId: string, timeZone: string) {
  return db
    .prepare("SELECT 1 AS built FROM donation_daily_state WHERE organization_id = ? AND time_zone = ?")
    .bind(orgId, timeZone);
}

/**
 * One page of the filtered set in `order`: the ids are picked first (from a covering index where
 * one serves) and only those rows are read and joined (a late join), instead of joining every
 * matching row.
 */
export function listPage(db: Database, w: Where, p: { order: string; pageSize: number; offset: number }) {
  return db
    .prepare(
      `SELECT ${SELECT} FROM (SELECT d.id FROM donation d WHERE ${w.sql.join(" AND ")} ORDER BY ${p.order} LIMIT ? OFFSET ?) p
             JOIN donation d ON d.id = p.id LEFT JOIN donor dn ON dn.id = d.donor_id
             LEFT JOIN campaign c ON c.id = d.campaign_id ORDER BY ${p.order}`,
    )
    .bind(...w.params, p.pageSize, p.offset);
}

/**
 * By amount: the page among the organization's first `window` gifts in amount order
 * (donation_org_amount_idx, which carries the status and the other filters' columns), keeping
 * those the filters keep.
 */
export function amountWindowPage(
  db: Database,
  w: Where,
  p: {
    orgId: string;
    window: number;
    dir: "ASC" | "DESC";
    order: string;
    pageSize: number;
    offset: number;
  },
) {
  return db
    .prepare(
      `SELECT ${SELECT} FROM (
                 SELECT d.id FROM (
                   SELECT d.id, d.organization_id, d.status, d.amount_minor, d.donated_at, d.trashed_at, d.mode, d.currency
                     FROM donation d INDEXED BY donation_org_amount_idx
                    WHERE d.organization_id = ? ORDER BY d.amount_minor ${p.dir}, d.id ${p.dir} LIMIT ?) d
                  WHERE ${w.sql.join(" AND ")} ORDER BY ${p.order} LIMIT ? OFFSET ?) p
                 JOIN donation d ON d.id = p.id LEFT JOIN donor dn ON dn.id = d.donor_id
                 LEFT JOIN campaign c ON c.id = d.campaign_id ORDER BY ${p.order}`,
    )
    .bind(p.orgId, p.window, ...w.params, p.pageSize, p.offset);
}

/**
 * The ids of the filtered set with what decides their status changes (a "Select all N matching"
 * snapshot, decision 024), newest first, at most `limit` rows.
 */
export function matchingRows(db: Database, w: Where, limit: number) {
  return db
    .prepare(
      `SELECT d.id, d.status, d.source FROM donation d WHERE ${w.sql.join(" AND ")}
        ORDER BY d.donated_at DESC, d.id DESC LIMIT ?`,
    )
    .bind(...w.params, limit)
    .all<{ id: string; status: DonationStatus; source: string }>();
}
