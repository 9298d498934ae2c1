// The organizers list (DESIGN §4): one row per (person, organization) — an organizer membership,
// a user with the platform role organizer, or an open invitation as organizer.
import type { OrganizerSort, OrganizerStatus } from "@core/organizers";
import type { Database } from "../db/databases";
import type { campaign } from "../db/domain";
import type { Row } from "../db/rows";
import type { membership, organization, user } from "../db/schema";
import { add, addIn, containsSql, runList, searchNeedle, sortColumn, type Where, where } from "../lib/list";

type M = Row<typeof membership>;
type U = Row<typeof user>;
type O = Row<typeof organization>;
type C = Row<typeof campaign>;

/** The sort keys' SQL: whitelisted, never interpolated from input. */
export const ORGANIZER_SORTS = {
  name: "lower(name)",
  email: "email",
  organization: "lower(organizationName)",
  joined: "joinedAt",
  status: "status",
} as const satisfies Record<OrganizerSort, string>;

/** `?1` is "now", so an unaccepted invitation past its expiry reads as expired. */
const ROWS = `(
  SELECT m.id AS id, u.id AS userId, u.name AS name, u.email AS email, o.id AS organizationId,
         o.name AS organizationName, m.role AS role,
         CASE WHEN u.banned THEN 'banned' ELSE 'active' END AS status,
         (SELECT iu.name FROM invitation i JOIN user iu ON iu.id = i.invited_by
           WHERE i.organization_id = m.organization_id AND i.email = lower(u.email) AND i.accepted_at IS NOT NULL
           ORDER BY i.accepted_at DESC LIMIT 1) AS invitedBy,
         m.created_at AS joinedAt
    FROM membership m JOIN user u ON u.id = m.user_id JOIN organization o ON o.id = m.organization_id
   WHERE m.role = 'organizer' OR (',' || u.role || ',') LIKE '%,organizer,%'
  UNION ALL
  SELECT i.id, NULL, NULL, i.email, o.id, o.name, i.role,
         CASE WHEN i.expires_at <= ?1 THEN 'expired' ELSE 'invited' END,
         iu.name, i.created_at
    FROM invitation i JOIN organization o ON o.id = i.organization_id LEFT JOIN user iu ON iu.id = i.invited_by
   WHERE i.role = 'organizer' AND i.accepted_at IS NULL AND i.revoked_at IS NULL
) x`;

const SELECT = `x.*,
  (SELECT max(s.updated_at) FROM session s WHERE s.user_id = x.userId) AS lastActiveAt,
  (SELECT count(*) FROM campaign c WHERE c.organization_id = x.organizationId AND c.created_by = x.userId) AS campaignsOwned`;

/** Columns typed from the schema's rows (worker/db/rows.ts); an invitation's row has no userId or name. */
export interface OrganizerRow {
  id: M["id"];
  userId: U["id"] | null;
  name: U["name"] | null;
  email: U["email"];
  organizationId: O["id"];
  organizationName: O["name"];
  role: M["role"];
  status: OrganizerStatus;
  invitedBy: U["name"] | null;
  joinedAt: M["created_at"];
  lastActiveAt: number | null;
  campaignsOwned: number;
}

export interface OrganizerFilters {
  q?: string;
  organizationId?: string;
  status?: readonly OrganizerStatus[];
  /** One person's rows (the organizer detail page). */
  userId?: string;
}

function organizerWhere(now: number, input: OrganizerFilters) {
  const w = where();
  // ?1 of ROWS: bound first so the positional parameters after it line up.
  w.params.push(now);
  if (input.q)
    add(
      w,
      `(${containsSql("x.name")} OR ${containsSql("x.email")})`,
      searchNeedle(input.q),
      searchNeedle(input.q),
    );
  if (input.organizationId) add(w, "x.organizationId = ?", input.organizationId);
  if (input.userId) add(w, "x.userId = ?", input.userId);
  addIn(w, "x.status", input.status);
  return w;
}

const whereSql = (w: Where) => (w.sql.length ? `WHERE ${w.sql.join(" AND ")}` : "");

export function organizerPage(
  db: Database,
  now: number,
  input: OrganizerFilters & { sort: OrganizerSort; desc: boolean; page: number; pageSize: number },
) {
  return runList<OrganizerRow>(db, {
    select: SELECT,
    from: ROWS,
    where: organizerWhere(now, input),
    orderBy: sortColumn(ORGANIZER_SORTS, input.sort),
    desc: input.desc,
    page: input.page,
    pageSize: input.pageSize,
  });
}

/** Keyset page of the export: rows after `after` by id, over the list's filters. */
export function exportPageStatement(
  db: Database,
  now: number,
  input: OrganizerFilters & { after?: string; limit: number },
) {
  const w = organizerWhere(now, input);
  if (input.after) add(w, "x.id > ?", input.after);
  return db
    .prepare(`SELECT ${SELECT} FROM ${ROWS} ${whereSql(w)} ORDER BY x.id LIMIT ?`)
    .bind(...w.params, input.limit);
}

/** The open invitations among the rows the list's filters match, in the list's default order. */
export async function openInvitationIds(db: Database, now: number, input: OrganizerFilters, limit: number) {
  const w = organizerWhere(now, input);
  const { results } = await db
    .prepare(`SELECT x.id FROM ${ROWS} ${whereSql(w)} ORDER BY x.joinedAt DESC, x.id DESC LIMIT ?`)
    .bind(...w.params, limit)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

export function exportCountStatement(db: Database, now: number, input: OrganizerFilters) {
  const w = organizerWhere(now, input);
  return db.prepare(`SELECT count(*) AS total FROM ${ROWS} ${whereSql(w)}`).bind(...w.params);
}

/** An organization invited into; never a deleted one (decision 047). */
export const organizationNamed = (db: Database, id: string) =>
  db
    .prepare("SELECT id, name FROM organization WHERE id = ? AND status != 'archived'")
    .bind(id)
    .first<Pick<O, "id" | "name">>();

export async function membershipsWithCampaigns(db: Database, userId: string) {
  const { results } = await db
    .prepare(
      `SELECT m.id, m.role, m.created_at AS joinedAt, o.id AS organizationId, o.name AS organizationName,
              (SELECT count(*) FROM campaign c WHERE c.organization_id = o.id AND c.created_by = m.user_id) AS campaignsOwned
         FROM membership m JOIN organization o ON o.id = m.organization_id WHERE m.user_id = ? ORDER BY o.name`,
    )
    .bind(userId)
    .all<{
      id: M["id"];
      role: M["role"];
      joinedAt: M["created_at"];
      organizationId: O["id"];
      organizationName: O["name"];
      campaignsOwned: number;
    }>();
  return results;
}

export async function campaignsCreatedBy(db: Database, userId: string) {
  const { results } = await db
    .prepare(
      `SELECT c.id, c.title, c.status, c.currency, o.name AS organizationName, c.created_at AS createdAt
         FROM campaign c JOIN organization o ON o.id = c.organization_id
        WHERE c.created_by = ? ORDER BY c.created_at DESC LIMIT 100`,
    )
    .bind(userId)
    .all<{
      id: C["id"];
      title: C["title"];
      status: C["status"];
      currency: C["currency"];
      organizationName: O["name"];
      createdAt: C["created_at"];
    }>();
  return results;
}

/** Campaigns each (organization, user) pair created, counted in one database (decision 027). */
export async function campaignCounts(db: Database, pairs: { organizationId: string; userId: string }[]) {
  const { results } = await db
    .prepare(
      `SELECT c.organization_id AS organizationId, c.created_by AS userId, count(*) AS n FROM campaign c
         JOIN json_each(?) p ON json_extract(p.value, '$[0]') = c.organization_id AND json_extract(p.value, '$[1]') = c.created_by
        GROUP BY 1, 2`,
    )
    .bind(JSON.stringify(pairs.map((p) => [p.organizationId, p.userId])))
    .all<{ organizationId: string; userId: string; n: number }>();
  return results;
}
