// Donor SQL; donors.list and the export are budgeted by `npm run bench` (docs/performance.md).
import type { DonorInput, DonorType } from "@core/donor";
import { DONOR_PAGE_GIFTS } from "@core/limits";
import { COUNTED_SQL } from "@core/status";
import { addDays, startOfLocalDay } from "@core/time";
import type { Database } from "../db/databases";
import type { Camel, DonationRow, Row } from "../db/rows";
import type { donor } from "../db/schema";
import type { Guard } from "../lib/guard";
import { add, containsSql, runList, searchNeedle, sortColumn, type Where, where } from "../lib/list";
import type { DonorExportPageInput, DonorFilterInput, DonorListInput } from "./router";

export type DonorRow = Row<typeof donor> & {
  tier_name: string | null;
  tier_color: string | null;
  previous_tier_name: string | null;
  donor_type: DonorType;
  /** JSON array of { id, name, color }, or null. */
  tags: string | null;
};

export type DonorExportSource = Row<typeof donor> & {
  tier_name: string | null;
  donor_type: DonorType;
  tag_names: string | null;
};

export const DONOR_SORTS = {
  name: "lower(COALESCE(dn.last_name, dn.company, dn.email))",
  created: "dn.created_at",
  lifetime: "dn.lifetime_minor",
  lastGift: "dn.last_gift_at",
} as const;

/** GiveWP's donor type, derived from the counted gifts. */
const DONOR_TYPE_SQL = `CASE
  WHEN dn.donation_count = 0 THEN 'new'
  WHEN EXISTS (SELECT 1 FROM donation r WHERE r.donor_id = dn.id AND r.frequency != 'one_time' AND ${COUNTED_SQL("r")}) THEN 'recurring'
  WHEN dn.donation_count = 1 THEN 'one_time'
  ELSE 'repeat' END`;

const SELECT = `dn.*, t.name AS tier_name, t.color AS tier_color, pt.name AS previous_tier_name, (${DONOR_TYPE_SQL}) AS donor_type,
  (SELECT json_group_array(json_object('id', g.id, 'name', g.name, 'color', g.color)) FROM donor_tag_assignment a JOIN donor_tag g ON g.id = a.tag_id WHERE a.donor_id = dn.id) AS tags`;
const TIER_JOINS =
  "LEFT JOIN donor_tier t ON t.id = dn.tier_id LEFT JOIN donor_tier pt ON pt.id = dn.previous_tier_id";
const FROM = `donor dn ${TIER_JOINS}`;
/** (donor_id, tag_id) is the assignment's key: one row per donor. */
const TAG_FROM = `donor_tag_assignment ta JOIN donor dn ON dn.id = ta.donor_id ${TIER_JOINS}`;

const EXPORT_SELECT = `dn.*, t.name AS tier_name, (${DONOR_TYPE_SQL}) AS donor_type,
  (SELECT group_concat(name, '; ') FROM (SELECT g.name FROM donor_tag_assignment a JOIN donor_tag g ON g.id = a.tag_id WHERE a.donor_id = dn.id ORDER BY lower(g.name))) AS tag_names`;

/** By its own id, merged or not. */
export function selectDonor(db: Database, orgId: string, id: string) {
  return db
    .prepare(`SELECT ${SELECT} FROM ${FROM} WHERE dn.organization_id = ? AND dn.id = ?`)
    .bind(orgId, id)
    .first<DonorRow>();
}

// Every list's donor search: part of the name, e-mail or company, ASCII case aside. `p` is written three
// times, so a numbered placeholder ("?7") binds once.
export const donorTextSql = (a: string, p = "?") =>
  `(${containsSql(`COALESCE(${a}.first_name,'') || ' ' || COALESCE(${a}.last_name,'')`, p)} OR ${containsSql(`${a}.email`, p)} OR ${containsSql(`${a}.company`, p)})`;

export function donorTextMatch(alias: string, q: string) {
  const needle = searchNeedle(q);
  return { sql: donorTextSql(alias), params: [needle, needle, needle] };
}

/** `tagJoined` (TAG_FROM): SQLite starts from the tag's assignments instead of testing every donor. */
function donorWhere(orgId: string, timeZone: string, input: DonorFilterInput, tagJoined = false): Where {
  const w = where();
  add(w, "dn.organization_id = ?", orgId);
  add(w, "dn.merged_into_id IS NULL");
  if (input.q) {
    const m = donorTextMatch("dn", input.q);
    add(w, m.sql, ...m.params);
  }
  if (input.tierId) add(w, "dn.tier_id = ?", input.tierId);
  if (input.importId) add(w, "dn.import_id = ?", input.importId);
  if (input.tagId && tagJoined) add(w, "ta.tag_id = ?", input.tagId);
  else if (input.tagId)
    add(
      w,
      "EXISTS (SELECT 1 FROM donor_tag_assignment a WHERE a.donor_id = dn.id AND a.tag_id = ?)",
      input.tagId,
    );
  if (input.type) add(w, "dn.type = ?", input.type);
  if (input.donorType) add(w, `(${DONOR_TYPE_SQL}) = ?`, input.donorType);
  if (input.lastGiftFrom) add(w, "dn.last_gift_at >= ?", startOfLocalDay(input.lastGiftFrom, timeZone));
  if (input.lastGiftTo)
    add(w, "dn.last_gift_at < ?", startOfLocalDay(addDays(input.lastGiftTo, 1), timeZone));
  if (input.minLifetimeMinor !== undefined) add(w, "dn.lifetime_minor >= ?", input.minLifetimeMinor);
  if (input.maxLifetimeMinor !== undefined) add(w, "dn.lifetime_minor <= ?", input.maxLifetimeMinor);
  for (const [key, col] of [
    ["emailOptIn", "email_opt_in"],
    ["phoneOptIn", "phone_opt_in"],
    ["mailOptIn", "mail_opt_in"],
  ] as const)
    if (input[key] !== undefined) add(w, `dn.${col} = ?`, input[key] ? 1 : 0);
  return w;
}

export function listDonors(db: Database, orgId: string, timeZone: string, input: DonorListInput) {
  const tagJoined = !!input.tagId;
  return runList<DonorRow>(db, {
    select: SELECT,
    from: tagJoined ? TAG_FROM : FROM,
    where: donorWhere(orgId, timeZone, input, tagJoined),
    orderBy: sortColumn(DONOR_SORTS, input.sort),
    desc: input.desc,
    page: input.page,
    pageSize: input.pageSize,
    tiebreak: "dn.id",
    totals: "COALESCE(SUM(dn.lifetime_minor), 0) AS lifetimeMinor",
  });
}

/** The list's own WHERE (decision 024), so the snapshot is the list; no tier joins, no filter reads them. */
export async function matchingDonorRows(
  db: Database,
  orgId: string,
  timeZone: string,
  input: DonorFilterInput,
  limit: number,
) {
  const tagJoined = !!input.tagId;
  const w = donorWhere(orgId, timeZone, input, tagJoined);
  const from = tagJoined ? "donor_tag_assignment ta JOIN donor dn ON dn.id = ta.donor_id" : "donor dn";
  const { results } = await db
    .prepare(
      `SELECT dn.id FROM ${from} WHERE ${w.sql.join(" AND ")} ORDER BY dn.created_at DESC, dn.id DESC LIMIT ?`,
    )
    .bind(...w.params, limit)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

export function exportStatements(
  db: Database,
  orgId: string,
  timeZone: string,
  filters: Omit<DonorExportPageInput, "after" | "limit">,
  after: string | undefined,
  limit: number,
) {
  const w = donorWhere(orgId, timeZone, filters);
  const whereSql = `WHERE ${w.sql.join(" AND ")}`;
  return {
    page: db
      .prepare(`SELECT ${EXPORT_SELECT} FROM ${FROM} ${whereSql} AND dn.id > ? ORDER BY dn.id LIMIT ?`)
      .bind(...w.params, after ?? "", limit),
    count: db.prepare(`SELECT count(*) AS total FROM ${FROM} ${whereSql}`).bind(...w.params),
  };
}

type DonorDonation = Camel<
  Pick<
    DonationRow,
    "id" | "number" | "amount_minor" | "refunded_minor" | "currency" | "status" | "donated_at"
  >
> & { campaign: string | null };

export async function donorDonations(db: Database, donorId: string) {
  const { results } = await db
    .prepare(
      `SELECT d.id, d.number, d.amount_minor AS amountMinor, d.refunded_minor AS refundedMinor, d.currency, d.status, d.donated_at AS donatedAt, c.title AS campaign
           FROM donation d LEFT JOIN campaign c ON c.id = d.campaign_id WHERE d.donor_id = ? AND d.trashed_at IS NULL ORDER BY d.donated_at DESC LIMIT ?`,
    )
    .bind(donorId, DONOR_PAGE_GIFTS)
    .all<DonorDonation>();
  return results;
}

/** The main address or one a merge kept (decision 052): one address names one donor. */
export function donorIdByEmail(db: Database, orgId: string, email: string) {
  return db
    .prepare(
      `SELECT id FROM donor WHERE organization_id = ?1 AND email = ?2
       UNION ALL SELECT donor_id FROM donor_contact WHERE organization_id = ?1 AND kind = 'email' AND value = ?2
       LIMIT 1`,
    )
    .bind(orgId, email)
    .first<{ id: string }>();
}

export function otherDonorWithEmail(db: Database, orgId: string, email: string, id: string) {
  return db
    .prepare(
      `SELECT id FROM donor WHERE organization_id = ?1 AND email = ?2 AND id != ?3
       UNION ALL SELECT donor_id FROM donor_contact WHERE organization_id = ?1 AND kind = 'email' AND value = ?2 AND donor_id != ?3
       LIMIT 1`,
    )
    .bind(orgId, email, id)
    .first();
}

/** What merges kept. */
export async function donorContacts(db: Database, donorId: string) {
  const { results } = await db
    .prepare("SELECT kind, value FROM donor_contact WHERE donor_id = ? ORDER BY created_at, value")
    .bind(donorId)
    .all<{ kind: "email" | "phone"; value: string }>();
  return results;
}

/** An address the donor now has as its main one is no longer one of its others. */
export function dropOwnContact(db: Database, donorId: string, kind: "email" | "phone", value: string | null) {
  return db
    .prepare("DELETE FROM donor_contact WHERE donor_id = ? AND kind = ? AND value = ?")
    .bind(donorId, kind, value ?? "");
}

export function donorIdByNameAndPostalCode(
  db: Database,
  orgId: string,
  d: { firstName?: string | null; lastName: string; postalCode: string },
) {
  return db
    .prepare(
      "SELECT id FROM donor WHERE organization_id = ? AND lower(last_name) = lower(?) AND lower(COALESCE(first_name,'')) = lower(?) AND postal_code = ? AND merged_into_id IS NULL LIMIT 1",
    )
    .bind(orgId, d.lastName, d.firstName ?? "", d.postalCode)
    .first<{ id: string }>();
}

/** In the order the create INSERT and the update SET list the columns. */
function donorValues(d: DonorInput, email: string | null) {
  return [
    d.type,
    d.firstName || null,
    d.lastName || null,
    d.company || null,
    email,
    d.phone || null,
    d.addressLine1 || null,
    d.city || null,
    d.region || null,
    d.postalCode || null,
    d.country || null,
    d.emailOptIn ? 1 : 0,
    d.phoneOptIn ? 1 : 0,
    d.mailOptIn ? 1 : 0,
    d.externalId || null,
  ];
}

export function insertDonor(
  db: Database,
  row: { id: string; orgId: string; data: DonorInput; email: string | null; createdBy: string; now: number },
) {
  return db
    .prepare(
      `INSERT INTO donor (id, organization_id, type, first_name, last_name, company, email, phone, address_line1, city, region, postal_code, country,
               email_opt_in, phone_opt_in, mail_opt_in, external_id, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(row.id, row.orgId, ...donorValues(row.data, row.email), row.createdBy, row.now, row.now);
}

export function updateDonor(
  db: Database,
  row: { id: string; orgId: string; data: DonorInput; email: string | null },
) {
  return db
    .prepare(
      `UPDATE donor SET type = ?, first_name = ?, last_name = ?, company = ?, email = ?, phone = ?, address_line1 = ?, city = ?, region = ?, postal_code = ?, country = ?,
               email_opt_in = ?, phone_opt_in = ?, mail_opt_in = ?, external_id = ?, updated_at = ? WHERE id = ? AND organization_id = ?`,
    )
    .bind(...donorValues(row.data, row.email), Date.now(), row.id, row.orgId);
}

/** The gifts that keep a donor from being deleted (it is anonymized instead). */
const KEPT = "d.status IN ('completed','partially_refunded','refunded','disputed')";

export function hasKeptDonation(db: Database, donorId: string) {
  return db
    .prepare(`SELECT 1 FROM donation d WHERE d.donor_id = ? AND ${KEPT} LIMIT 1`)
    .bind(donorId)
    .first();
}

/** The delete's check again, inside the write (decision 020): unmerged, no kept gift. */
export const deletableGuard = (donorId: string): Guard => ({
  sql: (p) =>
    `EXISTS (SELECT 1 FROM donor WHERE id = ?${p} AND merged_into_id IS NULL)
           AND NOT EXISTS (SELECT 1 FROM donation d WHERE d.donor_id = ?${p} AND ${KEPT})`,
  args: [donorId],
});

export function deleteDonor(db: Database, id: string, orgId: string, deletable: Guard) {
  return db
    .prepare(`DELETE FROM donor WHERE id = ?1 AND organization_id = ?2 AND ${deletable.sql(3)}`)
    .bind(id, orgId, ...deletable.args);
}
