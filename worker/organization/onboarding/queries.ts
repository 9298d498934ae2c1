/**
 * SQL of new organizations and requests (decision 045). A new organization is in no
 * ORGANIZATION_DATABASES entry yet, so it lives in the directory (decision 027): one batch writes it.
 */
import type { NewOrganizationInput } from "@core/onboarding";
import type { Database } from "../../db/databases";
import type { organizationRequest } from "../../db/domain";
import type { Row } from "../../db/rows";
import type { Guard } from "../../lib/guard";

export type OrganizationRequestRow = Row<typeof organizationRequest>;

/** The organization this batch inserted exists: every later statement of the batch holds on it. */
export const organizationInserted = (organizationId: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM organization WHERE id = ?${p})`,
  args: [organizationId],
});

/** Slugs in use that are `base` or `base-…`: where a new organization's slug must not fall. */
export async function slugsLike(db: Database, base: string): Promise<Set<string>> {
  const { results } = await db
    // A range on the unique index, not LIKE: no pattern built from input, and no pattern over
    // D1's 50-byte LIKE limit for a long name ('.' sorts right after '-').
    .prepare("SELECT slug FROM organization WHERE slug = ?1 OR (slug >= ?1 || '-' AND slug < ?1 || '.')")
    .bind(base)
    .all<{ slug: string }>();
  return new Set(results.map((r) => r.slug));
}

interface NewOrganization {
  id: string;
  slug: string;
  input: NewOrganizationInput;
  ownerId: string;
  membershipId: string;
  tiers: { id: string; name: string; minMinor: number; maxMinor: number | null; color: string }[];
  now: number;
}

/**
 * Everything an organization starts with, as the seed gives one: receipts from now on (decision 031),
 * empty rollups in its zone (decisions 013, 030), DESIGN §4's tiers. The row goes in only if its owner
 * has none of that name (a second "Create" makes nothing) and `when` holds; the rest hold on the row.
 */
export function newOrganizationStatements(
  db: Database,
  o: NewOrganization,
  when?: Guard,
): D1PreparedStatement[] {
  const made = organizationInserted(o.id);
  const { input } = o;
  return [
    db
      .prepare(
        `INSERT INTO organization (id, name, slug, country, default_currency, time_zone, fiscal_year_start_month, status, created_at, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, 'active', ?8, ?8
          WHERE NOT EXISTS (SELECT 1 FROM membership m JOIN organization x ON x.id = m.organization_id
                             WHERE m.user_id = ?9 AND m.role = 'owner' AND lower(x.name) = lower(?2))
            ${when ? `AND ${when.sql(10)}` : ""}`,
      )
      .bind(
        o.id,
        input.name,
        o.slug,
        input.country,
        input.defaultCurrency,
        input.timeZone,
        input.fiscalYearStartMonth,
        o.now,
        o.ownerId,
        ...(when?.args ?? []),
      ),
    db
      .prepare(
        `INSERT INTO membership (id, organization_id, user_id, role, created_at, updated_at)
         SELECT ?1, ?2, ?3, 'owner', ?4, ?4 WHERE ${made.sql(5)}`,
      )
      .bind(o.membershipId, o.id, o.ownerId, o.now, ...made.args),
    db
      .prepare(`UPDATE user SET active_organization_id = ?1 WHERE id = ?2 AND ${made.sql(3)}`)
      .bind(o.id, o.ownerId, ...made.args),
    db
      .prepare(
        `INSERT INTO org_counter (organization_id, name, value) SELECT ?1, 'receipts_from', ?2 WHERE ${made.sql(3)}`,
      )
      .bind(o.id, o.now, ...made.args),
    db
      .prepare(
        `INSERT INTO receipt_settings (organization_id, number_prefix, language, auto_send, created_at, updated_at)
         SELECT ?1, '', 'en', 0, ?2, ?2 WHERE ${made.sql(3)}`,
      )
      .bind(o.id, o.now, ...made.args),
    db
      .prepare(
        `INSERT INTO donation_daily_state (organization_id, time_zone) SELECT ?1, ?2 WHERE ${made.sql(3)}`,
      )
      .bind(o.id, input.timeZone, ...made.args),
    db
      .prepare(
        `INSERT INTO plan_rollup_state (organization_id, time_zone) SELECT ?1, ?2 WHERE ${made.sql(3)}`,
      )
      .bind(o.id, input.timeZone, ...made.args),
    db
      .prepare(
        `INSERT INTO donor_tier (id, organization_id, name, basis, min_minor, max_minor, color, sort_order, created_at, updated_at)
         SELECT json_extract(t.value, '$.id'), ?1, json_extract(t.value, '$.name'), 'lifetime',
                json_extract(t.value, '$.minMinor'), json_extract(t.value, '$.maxMinor'),
                json_extract(t.value, '$.color'), t.key, ?2, ?2
           FROM json_each(?3) t WHERE ${made.sql(4)}`,
      )
      .bind(o.id, o.now, JSON.stringify(o.tiers), ...made.args),
  ];
}

/** The person's pending request, if any, else their newest. */
export const latestRequestOf = (db: Database, userId: string) =>
  db
    .prepare(
      `SELECT r.*, o.name AS organization_name FROM organization_request r
         LEFT JOIN organization o ON o.id = r.organization_id
        WHERE r.user_id = ? ORDER BY r.status = 'pending' DESC, r.created_at DESC LIMIT 1`,
    )
    .bind(userId)
    .first<OrganizationRequestRow & { organization_name: string | null }>();

/** Whether the person has a request in this status (the access check's one extra read). */
export const latestRequestStatusOf = async (db: Database, userId: string) =>
  (
    await db
      .prepare(
        "SELECT status FROM organization_request WHERE user_id = ? ORDER BY status = 'pending' DESC, created_at DESC LIMIT 1",
      )
      .bind(userId)
      .first<{ status: string }>()
  )?.status ?? null;

/** A new pending request; nothing when the person has one pending already (the partial unique index). */
export const insertRequestStatement = (
  db: Database,
  r: { id: string; userId: string; input: NewOrganizationInput; now: number },
) =>
  db
    .prepare(
      `INSERT INTO organization_request (id, user_id, name, country, default_currency, time_zone, fiscal_year_start_month, status, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'pending', ?8, ?8)
       ON CONFLICT (user_id) WHERE status = 'pending' DO NOTHING`,
    )
    .bind(
      r.id,
      r.userId,
      r.input.name,
      r.input.country,
      r.input.defaultCurrency,
      r.input.timeZone,
      r.input.fiscalYearStartMonth,
      r.now,
    );

export const requestById = (db: Database, id: string) =>
  db.prepare("SELECT * FROM organization_request WHERE id = ?").bind(id).first<OrganizationRequestRow>();

/** The request is still pending: an approval's organization goes in only then. */
export const requestPending = (id: string): Guard => ({
  sql: (p) => `EXISTS (SELECT 1 FROM organization_request WHERE id = ?${p} AND status = 'pending')`,
  args: [id],
});

/** Approves a pending request, naming the organization the same batch created (else nothing). */
export const approveStatement = (
  db: Database,
  id: string,
  organizationId: string,
  adminId: string,
  now: number,
) => {
  const made = organizationInserted(organizationId);
  return db
    .prepare(
      `UPDATE organization_request SET status = 'approved', organization_id = ?1, decided_by = ?2, decided_at = ?3, updated_at = ?3
        WHERE id = ?4 AND status = 'pending' AND ${made.sql(5)}`,
    )
    .bind(organizationId, adminId, now, id, ...made.args);
};

/** Declines a pending request with the reason the person is told (else nothing). */
export const declineStatement = (db: Database, id: string, reason: string, adminId: string, now: number) =>
  db
    .prepare(
      `UPDATE organization_request SET status = 'declined', reason = ?1, decided_by = ?2, decided_at = ?3, updated_at = ?3
        WHERE id = ?4 AND status = 'pending'`,
    )
    .bind(reason, adminId, now, id);

/** The platform admins' queue: pending requests oldest first, then the last 50 decided, newest first. */
export async function requestQueue(db: Database) {
  const { results } = await db
    .prepare(
      `SELECT * FROM (
         SELECT r.*, u.name AS user_name, u.email AS user_email, d.name AS decided_by_name, o.name AS organization_name
           FROM organization_request r JOIN user u ON u.id = r.user_id
           LEFT JOIN user d ON d.id = r.decided_by LEFT JOIN organization o ON o.id = r.organization_id
          WHERE r.status = 'pending' ORDER BY r.created_at LIMIT 200)
       UNION ALL
       SELECT * FROM (
         SELECT r.*, u.name, u.email, d.name, o.name
           FROM organization_request r JOIN user u ON u.id = r.user_id
           LEFT JOIN user d ON d.id = r.decided_by LEFT JOIN organization o ON o.id = r.organization_id
          WHERE r.status <> 'pending' ORDER BY r.decided_at DESC LIMIT 50)`,
    )
    .all<
      OrganizationRequestRow & {
        user_name: string;
        user_email: string;
        decided_by_name: string | null;
        organization_name: string | null;
      }
    >();
  return results;
}
