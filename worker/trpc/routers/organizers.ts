/**
 * Organizers (DESIGN §4, admin only): people who run campaigns for an organization — a membership
 * with the organizer role, a user with the platform role organizer, or a pending invitation as
 * organizer. One row per (person, organization). Removing keeps the person and their history.
 */

import { enumSet } from "@core/schemas";
import { z } from "zod";
import { auditStatement } from "../../lib/audit";
import { createInvitation } from "../../lib/invitations";
import { add, addIn, likeEscape, listInput, runList, sortColumn, where } from "../../lib/list";
import { adminProcedure, fail, router } from "../init";

export const organizerStatuses = ["active", "banned", "invited", "expired"] as const;

const SORTS = {
  name: "lower(name)",
  email: "email",
  organization: "lower(organizationName)",
  joined: "joinedAt",
  status: "status",
} as const;

const filters = {
  organizationId: z.string().min(1).max(100).optional(),
  status: z.optional(enumSet(organizerStatuses)),
};
export const organizerListInput = listInput({ sorts: SORTS, defaultSort: "joined", filters });

/**
 * Members with the organizer role (or organizer users), plus open invitations as organizer.
 * `?1` is "now" so an unaccepted invitation past its expiry reads as expired.
 */
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

export interface OrganizerRow {
  id: string;
  userId: string | null;
  name: string | null;
  email: string;
  organizationId: string;
  organizationName: string;
  role: string;
  status: (typeof organizerStatuses)[number];
  invitedBy: string | null;
  joinedAt: number;
  lastActiveAt: number | null;
  campaignsOwned: number;
}

function organizerWhere(
  now: number,
  input: { q?: string; organizationId?: string; status?: string[]; userId?: string },
) {
  const w = where();
  // ?1 of ROWS: bound first so the positional parameters after it line up.
  w.params.push(now);
  if (input.q)
    add(
      w,
      "(lower(coalesce(x.name, '')) LIKE ? ESCAPE '\\' OR lower(x.email) LIKE ? ESCAPE '\\')",
      likeEscape(input.q),
      likeEscape(input.q),
    );
  if (input.organizationId) add(w, "x.organizationId = ?", input.organizationId);
  if (input.userId) add(w, "x.userId = ?", input.userId);
  addIn(w, "x.status", input.status);
  return w;
}

export const organizersRouter = router({
  list: adminProcedure({ user: ["list"] })
    .input(organizerListInput)
    .query(async ({ ctx, input }) =>
      runList<OrganizerRow>(ctx.env.DB, {
        select: SELECT,
        from: ROWS,
        where: organizerWhere(Date.now(), input),
        orderBy: sortColumn(SORTS, input.sort),
        desc: input.desc,
        page: input.page,
        pageSize: input.pageSize,
      }),
    ),

  /**
   * One page of the CSV export (the browser assembles the file and shows progress). Keyset paging
   * on (id) over the current filters, so the export never truncates and never skips; the first page
   * writes the audit row (exports are audited).
   */
  exportPage: adminProcedure({ user: ["list"], export: ["create"] })
    .input(
      z
        .object({
          q: z.string().trim().max(200).optional(),
          organizationId: filters.organizationId,
          status: filters.status,
          /** One organizer's rows (the export on /organizers/{id}). */
          userId: z.string().min(1).max(100).optional(),
          after: z.string().max(100).optional(),
          limit: z.number().int().min(1).max(1000).default(500),
        })
        .strict(),
    )
    .mutation(async ({ ctx, input }) => {
      const db = ctx.env.DB;
      const now = Date.now();
      const w = organizerWhere(now, input);
      if (input.after) add(w, "x.id > ?", input.after);
      const whereSql = w.sql.length ? `WHERE ${w.sql.join(" AND ")}` : "";
      const stmts: D1PreparedStatement[] = [
        db
          .prepare(`SELECT ${SELECT} FROM ${ROWS} ${whereSql} ORDER BY x.id LIMIT ?`)
          .bind(...w.params, input.limit),
      ];
      if (!input.after) {
        const countWhere = organizerWhere(now, input);
        stmts.push(
          db
            .prepare(
              `SELECT count(*) AS total FROM ${ROWS} ${countWhere.sql.length ? `WHERE ${countWhere.sql.join(" AND ")}` : ""}`,
            )
            .bind(...countWhere.params),
          auditStatement(ctx, {
            action: "organizer.export",
            entityType: "organizer",
            entityId: "export",
            after: { q: input.q, organizationId: input.organizationId, status: input.status },
            organizationId: input.organizationId ?? null,
          }),
        );
      }
      const [page, count] = await db.batch(stmts);
      const rows = (page?.results ?? []) as OrganizerRow[];
      return {
        rows,
        total: input.after ? undefined : ((count?.results[0] as { total: number } | undefined)?.total ?? 0),
        next: rows.length === input.limit ? rows[rows.length - 1]?.id : undefined,
      };
    }),

  /** Invites an organizer into an organization by e-mail (7-day link, accepted at /accept-invitation). */
  invite: adminProcedure({ user: ["create"] })
    .input(z.object({ email: z.email().max(254), organizationId: z.string().min(1).max(100) }).strict())
    .mutation(async ({ ctx, input }) => {
      const org = await ctx.env.DB.prepare("SELECT id, name FROM organization WHERE id = ?")
        .bind(input.organizationId)
        .first<{ id: string; name: string }>();
      if (!org) fail("NOT_FOUND", "Organization not found");
      const res = await createInvitation(ctx, {
        organizationId: org.id,
        organizationName: org.name,
        email: input.email,
        role: "organizer",
      });
      if ("alreadyMember" in res)
        fail("CONFLICT", "This person is already a member of the organization", { field: "email" });
      return res;
    }),

  /** Memberships and open invitations of one person, for the organizer detail page. */
  memberships: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1).max(100) }).strict())
    .query(async ({ ctx, input }) => {
      const { results } = await ctx.env.DB.prepare(
        `SELECT m.id, m.role, m.created_at AS joinedAt, o.id AS organizationId, o.name AS organizationName,
                (SELECT count(*) FROM campaign c WHERE c.organization_id = o.id AND c.created_by = m.user_id) AS campaignsOwned
           FROM membership m JOIN organization o ON o.id = m.organization_id WHERE m.user_id = ? ORDER BY o.name`,
      )
        .bind(input.userId)
        .all<{
          id: string;
          role: string;
          joinedAt: number;
          organizationId: string;
          organizationName: string;
          campaignsOwned: number;
        }>();
      return results;
    }),

  /** Campaigns the person created, across organizations (newest first, at most 100). */
  campaigns: adminProcedure({ user: ["get"] })
    .input(z.object({ userId: z.string().min(1).max(100) }).strict())
    .query(async ({ ctx, input }) => {
      const { results } = await ctx.env.DB.prepare(
        `SELECT c.id, c.title, c.status, c.currency, o.name AS organizationName, c.created_at AS createdAt
           FROM campaign c JOIN organization o ON o.id = c.organization_id
          WHERE c.created_by = ? ORDER BY c.created_at DESC LIMIT 100`,
      )
        .bind(input.userId)
        .all<{
          id: string;
          title: string;
          status: string;
          currency: string;
          organizationName: string;
          createdAt: number;
        }>();
      return results;
    }),

  /** Revokes an open organizer invitation (from the organizers list). */
  revokeInvitation: adminProcedure({ user: ["update"] })
    .input(
      z.object({ id: z.string().min(1).max(100), reason: z.string().trim().max(500).optional() }).strict(),
    )
    .mutation(async ({ ctx, input }) => {
      const inv = await ctx.env.DB.prepare(
        "SELECT id, organization_id, email, role FROM invitation WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL",
      )
        .bind(input.id)
        .first<{ id: string; organization_id: string; email: string; role: string }>();
      if (!inv) fail("NOT_FOUND", "Invitation not found");
      const now = Date.now();
      const [r] = await ctx.env.DB.batch([
        ctx.env.DB.prepare(
          "UPDATE invitation SET revoked_at = ?, updated_at = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL",
        ).bind(now, now, input.id),
        auditStatement(ctx, {
          action: "member.revoke_invitation",
          entityType: "invitation",
          entityId: inv.id,
          before: inv,
          reason: input.reason,
          organizationId: inv.organization_id,
        }),
      ]);
      if (!r?.meta.changes) fail("NOT_FOUND", "Invitation not found");
      return { id: input.id };
    }),
});
