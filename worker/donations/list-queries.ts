// The SQL of donations.list and the export's filters, as tuned (decisions 011 and 013); list.ts picks which.
import type { FrequencyFilter } from "@core/labels";
import { countedWithin, type DonationStatus } from "@core/status";
import { addDays, startOfLocalDay } from "@core/time";
import { segmentParams, segmentSql } from "../dashboard/retention";
import type { Database } from "../db/databases";
import { donorTextMatch } from "../donors/queries";
import { add, type Where, where } from "../lib/list";
import type { DonationFilters, DonationSort } from "./filters";
import { SELECT } from "./queries";

/** The input schema takes only these keys. */
export const SORT_COLUMNS: Record<DonationSort, string> = {
  date: "d.donated_at",
  amount: "d.amount_minor",
  status: "d.status",
  number: "d.number",
};

/** "recurring" is every frequency but one_time, as the dashboard splits them. */
export function frequencySql(a: string, f: FrequencyFilter, bind: (value: string) => string): string {
  return f === "recurring" ? `${a}.frequency != 'one_time'` : `${a}.frequency = ${bind(f)}`;
}

/** "1234" or "#1234". */
const searchedNumber = (q: string) => {
  const n = Number(q.replace(/^#/, ""));
  return Number.isInteger(n) && n > 0 ? n : null;
};

// `byDonor` (decision 040): a text search reads the donors' gifts by donation_donor_idx, a MULTI-INDEX OR,
// for the list and its snapshot, which count or sort the whole set; the export keeps the date walk.
export function donationWhere(
  orgId: string,
  timeZone: string,
  f: DonationFilters,
  { byDonor = false }: { byDonor?: boolean } = {},
): Where {
  const w = where();
  const textSearch = !!f.q && searchedNumber(f.q) === null;
  // An item's gifts are few: the unary + keeps SQLite off the organization's and campaign's date indexes,
  // so it reads donation_item_idx and sorts.
  const byItem = f.campaignItemId ? "+" : "";
  add(w, `${byItem || (byDonor && textSearch) ? "+" : ""}d.organization_id = ?`, orgId);
  add(w, f.trashed ? "d.trashed_at IS NOT NULL" : "d.trashed_at IS NULL");
  if (f.status?.length) add(w, `d.status IN (${f.status.map(() => "?").join(",")})`, ...f.status);
  if (f.campaignId) add(w, `${byItem}d.campaign_id = ?`, f.campaignId);
  if (f.campaignItemId) add(w, "d.campaign_item_id = ?", f.campaignItemId);
  if (f.donorId) add(w, "d.donor_id = ?", f.donorId);
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

export interface CurrencyTotals {
  currency: string;
  count: number;
  countedCount: number;
  countedMinor: number;
}

/** Only for filters the rollup's keys answer exactly (decision 013). */
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

export function dailyTotalsBuilt(db: Database, orgId: string, timeZone: string) {
  return db
    .prepare("SELECT 1 AS built FROM donation_daily_state WHERE organization_id = ? AND time_zone = ?")
    .bind(orgId, timeZone);
}

/** A late join: the ids are picked first (from a covering index where one serves), then only those joined. */
export function listPage(db: Database, w: Where, p: { order: string; pageSize: number; offset: number }) {
  return db
    .prepare(
      `SELECT ${SELECT} FROM (SELECT d.id FROM donation d WHERE ${w.sql.join(" AND ")} ORDER BY ${p.order} LIMIT ? OFFSET ?) p
             JOIN donation d ON d.id = p.id LEFT JOIN donor dn ON dn.id = d.donor_id
             LEFT JOIN campaign c ON c.id = d.campaign_id ORDER BY ${p.order}`,
    )
    .bind(...w.params, p.pageSize, p.offset);
}

/** The page among the first `window` gifts of donation_org_amount_idx, which carries the filters' columns. */
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

/** A "Select all N matching" snapshot (decision 024), with what decides each row's status changes. */
export function matchingRows(db: Database, w: Where, limit: number) {
  return db
    .prepare(
      `SELECT d.id, d.status, d.source FROM donation d WHERE ${w.sql.join(" AND ")}
        ORDER BY d.donated_at DESC, d.id DESC LIMIT ?`,
    )
    .bind(...w.params, limit)
    .all<{ id: string; status: DonationStatus; source: string }>();
}
